"""Wizards Cup's wing: its table, widgets, narration, coach and result screens."""
