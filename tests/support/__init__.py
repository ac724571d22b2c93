"""What the tests need and the bot does not: a second game, Discord's API description."""
