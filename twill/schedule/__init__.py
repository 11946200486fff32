"""Schedules and the independent checker."""
