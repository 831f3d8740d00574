"""`.ci/run` runs the README's test command as README.md writes it: the one indented line after the
paragraph starting **Run all tests**, and nothing else; a README that does not give it so is an error."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUN_ALL = "**Run all tests** (Rust and Python;\nwraps onto a second line):\n\n"
LATER = "\n## Quick start\n\n    pacesim run e-base --set core.buffer=5KB\n"


def printed(tmp_path: Path, readme: str) -> subprocess.CompletedProcess:
    (tmp_path / ".ci").mkdir(exist_ok=True)
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / "README.md").write_text(readme)
    return subprocess.run(["bash", str(tmp_path / ".ci" / "run"), "--print-command"], capture_output=True, text=True)


def test_the_readme_in_the_repository_gives_its_command():
    done = subprocess.run(["bash", str(ROOT / ".ci" / "run"), "--print-command"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.rstrip().endswith("python -m pytest -q -n auto --dist worksteal"), done


@pytest.mark.parametrize("ending", ["\n", "", "\nMore text.\n"])
def test_the_indented_line_after_the_paragraph_is_the_command(tmp_path, ending):
    done = printed(tmp_path, "# x\n\n" + RUN_ALL + "    make test && pytest -q\n" + ending + LATER)
    assert (done.returncode, done.stdout) == (0, "make test && pytest -q\n"), done


@pytest.mark.parametrize("body", [
    "```\nmake test\n```\n",  # a fenced block: the next indented line is Quick start's, never the command
    "    make test && \\\n      pytest -q\n",  # continued with a backslash
    "    make test\n    pytest -q\n",  # two lines
    "Some prose first.\n\n    make test\n",  # not right after the paragraph
])
def test_anything_else_is_an_error_not_another_command(tmp_path, body):
    done = printed(tmp_path, "# x\n\n" + RUN_ALL + body + LATER)
    assert done.returncode == 1 and "must give the test command" in done.stderr, done
    assert "pacesim run" not in done.stdout


def test_no_such_paragraph_is_an_error(tmp_path):
    done = printed(tmp_path, "# x\n" + LATER)
    assert done.returncode == 1 and done.stdout == ""


def test_the_readme_says_what_a_user_without_root_runs():
    """Issue 34 review: the command's apt-get part needs root. The README says so and gives the command a
    user without root runs: CI's own command without its apt-get parts, after installing the same packages."""
    command = subprocess.run(["bash", str(ROOT / ".ci" / "run"), "--print-command"], capture_output=True,
                             text=True, check=True).stdout.strip()
    parts = command.split(" && ")
    apt = [p for p in parts if "apt-get" in p]
    assert apt and parts[:len(apt)] == apt, "the apt-get part comes first"
    packages = apt[-1].split("install -y -q ")[1]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paragraph = readme.split("\n**Without root**", 1)[1].split("\n\n")[0]
    assert "needs root" in paragraph and f"sudo apt-get install {packages}" in paragraph
    user = readme.split("\n**Without root**", 1)[1].split("\n\n")[1]
    assert user == "    " + " && ".join(parts[len(apt):])
