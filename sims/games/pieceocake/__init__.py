"""Piece o' Cake (Jeffrey D. Allers, 2008): New York Slice's ancestor, 2–5 players."""
