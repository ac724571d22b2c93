"""Dukes Up! on Discord."""
