"""profiling."""
