"""Tests of engine/core and the contract every game keeps."""
