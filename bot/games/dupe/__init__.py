"""Dupe in the bot."""
