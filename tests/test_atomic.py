"""compiler/atomic.py: a directory is replaced whole or not at all."""

import pytest

from compiler.atomic import atomic_dir


def test_success_replaces_the_directory(tmp_path):
    out = tmp_path / "model"
    out.mkdir()
    (out / "old.txt").write_text("old")
    with atomic_dir(out) as tmp:
        assert tmp != out and tmp.parent == out.parent and not any(tmp.iterdir())
        (tmp / "new.txt").write_text("new")
        assert (out / "old.txt").exists()  # nothing visible until the block ends
    assert sorted(p.name for p in out.iterdir()) == ["new.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["model"]  # no temporary directory left


def test_failure_leaves_the_old_directory(tmp_path):
    out = tmp_path / "model"
    out.mkdir()
    (out / "old.txt").write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_dir(out) as tmp:
            (tmp / "half.txt").write_text("half")
            raise RuntimeError("interrupted")
    assert sorted(p.name for p in out.iterdir()) == ["old.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["model"]
