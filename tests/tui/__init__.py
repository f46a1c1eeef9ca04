"""Tests of the generic app: shell, screens, widgets, shared tables and real terminals."""
