"""Remote control: commands, timed tasks, device groups."""
