"""A learner's lesson progress, kept as a preference: read back strictly, damaged entries left out."""

from __future__ import annotations

from saves import SessionStore
from saves.lessons import PROGRESS_KEY, LessonProgress, lesson_progress, save_lesson_progress
from saves.preferences import set_preference


def test_progress_is_kept_per_lesson_and_per_account() -> None:
    with SessionStore() as store:
        assert lesson_progress(store, None) == {}
        assert save_lesson_progress(store, None, "wizards-cup", LessonProgress(3, False))
        assert save_lesson_progress(store, None, "witchdraft", LessonProgress(0, True))
        assert save_lesson_progress(store, "ann", "wizards-cup", LessonProgress(7, True))
        assert lesson_progress(store, None) == {"wizards-cup": LessonProgress(3, False),
                                                "witchdraft": LessonProgress(0, True)}
        assert lesson_progress(store, "ann") == {"wizards-cup": LessonProgress(7, True)}


def test_a_damaged_or_hostile_stored_value_reads_as_no_progress() -> None:
    with SessionStore() as store:
        set_preference(store, None, PROGRESS_KEY, {
            "wizards-cup": {"step": -4, "done": False},  # no step before the first
            "witchdraft": {"step": True, "done": False},  # true is not a number of steps
            "wizbits": {"step": 2, "done": "yes"},
            "x": "not an object",
            "ok": {"step": 2, "done": True},
        })
        assert lesson_progress(store, None) == {"ok": LessonProgress(2, True)}
        set_preference(store, None, PROGRESS_KEY, ["a", "list"])
        assert lesson_progress(store, None) == {}
        # Saving over damage keeps only what reads well.
        assert save_lesson_progress(store, None, "wizards-cup", LessonProgress(1, False))
        assert lesson_progress(store, None) == {"wizards-cup": LessonProgress(1, False)}


def test_without_a_store_nothing_is_kept_and_nothing_fails() -> None:
    assert lesson_progress(None, None) == {}
    assert not save_lesson_progress(None, None, "wizards-cup", LessonProgress(1, False))


def test_the_learners_own_moves_are_kept_and_damaged_ones_left_out() -> None:
    move = {"type": "place", "x": -1, "y": -1, "rotation": 180}
    with SessionStore() as store:
        assert save_lesson_progress(store, None, "witchdraft", LessonProgress(12, False, {9: move}))
        assert lesson_progress(store, None)["witchdraft"] == LessonProgress(12, False, {9: move})
        set_preference(store, None, PROGRESS_KEY, {"witchdraft": {"step": 12, "done": False, "own": {
            "9": move,
            "3": {"type": "place", "x": "9" * 50, "y": 0, "rotation": 0},  # a value no move holds
            "4": {str(n): n for n in range(20)},  # more fields than any move has
            "5": "not an object",
            "12": move,  # not a step done yet
            "-1": move,
            "x": move,
        }}})
        assert lesson_progress(store, None)["witchdraft"] == LessonProgress(12, False, {9: move})
        set_preference(store, None, PROGRESS_KEY, {"witchdraft": {"step": 12, "done": False, "own": ["a"]}})
        assert lesson_progress(store, None)["witchdraft"] == LessonProgress(12, False)


def test_own_moves_are_kept_per_account() -> None:
    move = {"type": "place", "x": 1, "y": -2, "rotation": 90}
    with SessionStore() as store:
        assert save_lesson_progress(store, "ann", "witchdraft", LessonProgress(20, False, {15: move}))
        assert save_lesson_progress(store, "bo", "witchdraft", LessonProgress(20, False))
        assert lesson_progress(store, "ann")["witchdraft"].own == {15: move}
        assert lesson_progress(store, "bo")["witchdraft"].own == {}
        assert "witchdraft" not in lesson_progress(store, None)
