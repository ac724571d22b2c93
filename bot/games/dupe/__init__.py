"""Dupe (David Parlett) on Discord."""
