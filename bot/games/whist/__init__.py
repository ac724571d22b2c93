"""Whist on Discord: the whist family's ``GameUI`` (``ui``) and its messages (``render``)."""
