"""Runnable examples that train small models with tinyframe."""
