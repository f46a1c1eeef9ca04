"""Wizbits bots: Normal's judgement, the Hard search over it, and the determinized states the search samples."""
