"""Each game's bot package: its pictures, and what else the bot shows of it."""
