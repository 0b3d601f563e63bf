"""What each game tells the Discord side: its adapter (texts, buttons, pictures) and its spec."""
