"""Admin for jobs and their events."""
