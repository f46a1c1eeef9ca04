"""Coven's tests, in folders that mirror the code (engine/, saves/, tui/), with serve/, snapshots/, project/ and helpers/."""
