"""Discord side: the generic game cog, its helpers, and one adapter module per game."""
