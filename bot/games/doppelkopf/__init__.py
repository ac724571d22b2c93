"""Doppelkopf on Discord (see ``ui``)."""
