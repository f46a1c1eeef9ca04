"""The generic game screen and its parts: the loop, the narrator, undo and saving that keeps failing."""
