"""Table images for the games: pure functions from engine views to PNG bytes."""
