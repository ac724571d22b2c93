"""Dupe on Discord: the slash commands, the buttons and the controller behind them."""
