"""End-to-end test harness: a fake Discord, a driver that acts like users, and pytest fixtures."""
