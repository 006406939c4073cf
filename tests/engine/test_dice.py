"""Verifiable dice: fixed vectors, the rejection of biased bytes, uniformity over many
games (chi-squared, deterministic seeds so it cannot flake), and the stand-alone checker
(run from a copy, isolated from the project) that recomputes the rolls and fails on a
tampered seed, a wrong salt, a wrong roll count or a changed roll."""

from __future__ import annotations

import ast
import hashlib
import hmac
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine import dice as D

ROOT = Path(__file__).resolve().parents[2]
SEED = "ab" * 32
ZERO_SEED = "00" * 32


def chi_squared_p(observed: Counter[int], cells: int) -> tuple[float, float]:
    """The chi-squared statistic of uniform ``cells`` and its p-value (upper tail).

    The tail of the chi-squared law with an odd number k of degrees of freedom has a closed
    form: erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) sum_{j=1}^{(k-1)/2} x^(j-1) / (1*3*...*(2j-1));
    with k even it is e^(-x/2) sum_{j<k/2} (x/2)^j / j!.
    """
    total = sum(observed.values())
    expected = total / cells
    x = sum((observed.get(c, 0) - expected) ** 2 / expected for c in range(cells))
    k = cells - 1
    if k % 2 == 0:
        term, tail = 1.0, 0.0
        for j in range(k // 2):
            if j:
                term *= (x / 2) / j
            tail += term
        return x, math.exp(-x / 2) * tail
    term, tail = 1.0, 0.0
    for j in range(1, (k - 1) // 2 + 1):
        term = 1.0 if j == 1 else term * x / (2 * j - 1)
        tail += term
    return x, math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * tail


def test_the_p_value_formula_against_known_quantiles() -> None:
    # upper 5% points of chi-squared with 5 and 35 degrees of freedom (the tables' values)
    def p_at(x: float, k: int) -> float:
        cells = k + 1
        # a Counter whose statistic is exactly x: put the excess in cell 0
        n = 10**6
        e = n / cells
        d = math.sqrt(x * e * (cells - 1) / cells)
        obs = Counter({c: e - d / (cells - 1) for c in range(1, cells)})
        obs[0] = e + d
        return chi_squared_p(obs, cells)[1]  # type: ignore[arg-type]

    assert p_at(11.0705, 5) == pytest.approx(0.05, abs=1e-4)
    assert p_at(49.8018, 35) == pytest.approx(0.05, abs=1e-4)
    assert p_at(3.9403, 10) == pytest.approx(0.95, abs=1e-4)


def test_known_vectors() -> None:
    assert D.commitment(SEED) == "9a2db2e23f1504cd056606553ac049c5e718e8f9ce9233876df1a7a1821af885"
    assert D.derive_dice(ZERO_SEED, "salt", 12) == [5, 6, 3, 5, 4, 5, 2, 3, 2, 3, 1, 4]
    assert D.derive_dice(SEED, "12345", 12) == [6, 2, 3, 2, 4, 2, 6, 3, 6, 5, 5, 6]
    # the definition spelled out for die 0: first byte below 252 of the HMAC, mod 6, plus 1
    digest = hmac.new(bytes(32), b"salt:0:0", hashlib.sha256).digest()
    first = next(b for b in digest if b < 252)
    assert D.derive_die(ZERO_SEED, "salt", 0) == first % 6 + 1


def test_every_die_depends_on_seed_salt_and_index() -> None:
    base = D.derive_dice(SEED, "1", 40)
    assert D.derive_dice(SEED, "2", 40) != base
    assert D.derive_dice("ac" + SEED[2:], "1", 40) != base
    assert D.derive_dice(SEED, "1", 20, start=20) == base[20:]


def test_rejection_sampling_skips_the_biased_bytes() -> None:
    assert D.die_from_bytes(bytes([0])) == 1
    assert D.die_from_bytes(bytes([251])) == 6  # the last accepted byte
    assert D.die_from_bytes(bytes([252, 255, 7])) == 2  # 252..255 skipped
    assert D.die_from_bytes(bytes([252, 253, 254, 255])) is None
    # every accepted byte value maps to each face equally often: 42 times
    faces = Counter(D.die_from_bytes(bytes([b])) for b in range(D.ACCEPT_BELOW))
    assert faces == dict.fromkeys(range(1, 7), 42)


def test_a_wholly_rejected_block_moves_on_to_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    real = hmac.new
    messages: list[bytes] = []

    class AllRejected:
        def digest(self) -> bytes:
            return bytes([255]) * 32

    def fake_new(key: bytes, message: bytes, digestmod: object) -> object:
        messages.append(message)
        if message.endswith(b":0"):
            return AllRejected()
        return real(key, message, hashlib.sha256)

    monkeypatch.setattr(D.hmac, "new", fake_new)
    die = D.derive_die(SEED, "9", 3)
    assert messages == [b"9:3:0", b"9:3:1"]
    expected = next(
        b for b in real(bytes.fromhex(SEED), b"9:3:1", hashlib.sha256).digest() if b < 252
    )
    assert die == expected % 6 + 1


@pytest.mark.parametrize("seed", ["ab" * 31, "zz" * 32, "", "ab" * 33])
def test_malformed_seeds_are_refused(seed: str) -> None:
    with pytest.raises(ValueError, match="hex"):
        D.commitment(seed)
    with pytest.raises(ValueError, match="hex"):
        D.SeededDice(seed, "1")


def test_seeded_dice_continue_the_sequence() -> None:
    source = D.SeededDice(SEED, "77", start=4)
    assert [source.roll(), source.roll()] == [
        tuple(D.derive_dice(SEED, "77", 2, start=4)),
        tuple(D.derive_dice(SEED, "77", 2, start=6)),
    ]
    assert source.next_index == 8
    assert D.new_seed() != D.new_seed()
    assert len(D.new_seed()) == 64


def _game_seeds(n: int) -> list[str]:
    """Deterministic, unrelated seeds: the test gives the same answer every run."""
    return [hashlib.sha256(f"uniformity-{i}".encode()).hexdigest() for i in range(n)]


GAMES = 2000
DICE_PER_GAME = 60


def test_faces_are_uniform_over_many_games() -> None:
    faces: Counter[int] = Counter()
    pairs: Counter[int] = Counter()
    first: Counter[int] = Counter()
    for i, seed in enumerate(_game_seeds(GAMES)):
        dice = D.derive_dice(seed, str(10_000 + i), DICE_PER_GAME)
        faces.update(d - 1 for d in dice)
        pairs.update(6 * (a - 1) + (b - 1) for a, b in zip(dice[::2], dice[1::2], strict=True))
        first[dice[0] - 1] += 1
    x_faces, p_faces = chi_squared_p(faces, 6)
    x_pairs, p_pairs = chi_squared_p(pairs, 36)
    x_first, p_first = chi_squared_p(first, 6)
    print(
        f"\nchi-squared over {GAMES} games x {DICE_PER_GAME} dice: faces {x_faces:.2f} "
        f"(5 dof) p={p_faces:.4f}; rolls {x_pairs:.2f} (35 dof) p={p_pairs:.4f}; "
        f"first die {x_first:.2f} (5 dof) p={p_first:.4f}"
    )
    assert min(p_faces, p_pairs, p_first) > 1e-4


def test_biased_dice_would_fail_the_same_test() -> None:
    """The test can fail: taking every byte modulo 6 (no rejection) is caught."""
    faces: Counter[int] = Counter()
    for seed in _game_seeds(GAMES):
        digest = hashlib.sha256(bytes.fromhex(seed)).digest()
        digest += hashlib.sha256(digest).digest()
        faces.update(b % 6 for b in digest[:60])
    _, p = chi_squared_p(faces, 6)
    assert p < 1e-4


# --------------------------------------------------------------------------- command line
STANDALONE = ROOT / "engine" / "verify_dice.py"


@pytest.fixture
def checker(tmp_path: Path) -> Path:
    """The stand-alone checker copied where nothing of Tavola can be imported."""
    copy = tmp_path / "verify_dice.py"
    copy.write_bytes(STANDALONE.read_bytes())
    return copy


def _verify(checker: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-I", "-W", "error", str(checker), *args],  # isolated: no project
        cwd=checker.parent,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _rolls(seed: str, salt: str, count: int) -> str:
    dice = D.derive_dice(seed, salt, 2 * count)
    return ",".join(f"{a}-{b}" for a, b in zip(dice[::2], dice[1::2], strict=True))


WORDS_SALT = D.salt_of_words("trifoglio7", "123456789")


def _values(salt: str = WORDS_SALT, seed: str = SEED) -> list[str]:
    return ["--seed", seed, "--salt", salt, "--commitment", D.commitment(SEED)]


def test_the_checker_imports_only_the_standard_library() -> None:
    tree = ast.parse(STANDALONE.read_text())
    names = {
        a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    names |= {
        (n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
    }
    assert names and names <= set(sys.stdlib_module_names) | {"__future__"}, names


@pytest.mark.parametrize("salt", ["12345", "AgAAAJ5eAQBnZK0F", WORDS_SALT])
def test_the_checker_recomputes_the_rolls_of_either_salt_version(checker: Path, salt: str) -> None:
    claimed = _rolls(SEED, salt, 30)
    done = _verify(checker, *_values(salt), "--rolls", "30", "--dice", claimed)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no warning of any kind
    rolls = [line.split(": ")[1] for line in done.stdout.splitlines() if line.startswith("roll")]
    assert ",".join(rolls) == claimed
    assert "commitment OK" in done.stdout and "all 30 rolls OK" in done.stdout


def test_the_checker_without_claims_prints_the_rolls(checker: Path) -> None:
    done = _verify(checker, *_values(), "--rolls", "6")
    assert done.returncode == 0, done.stderr
    rolls = [line.split(": ")[1] for line in done.stdout.splitlines() if line.startswith("roll")]
    assert ",".join(rolls) == _rolls(SEED, WORDS_SALT, 6)


def test_the_checker_fails_on_a_wrong_salt(checker: Path) -> None:
    claimed = _rolls(SEED, WORDS_SALT, 30)
    wrong = D.salt_of_words("trifoglio8", "123456789")
    done = _verify(checker, *_values(wrong), "--rolls", "30", "--dice", claimed)
    assert done.returncode == 1
    assert "MISMATCH" in done.stdout and "FAILED" in done.stderr


@pytest.mark.parametrize("count", ["29", "31"])
def test_the_checker_fails_on_a_wrong_roll_count(checker: Path, count: str) -> None:
    claimed = _rolls(SEED, WORDS_SALT, 30)
    done = _verify(checker, *_values(), "--rolls", count, "--dice", claimed)
    assert done.returncode == 1
    assert "FAILED" in done.stderr


def test_the_checker_fails_on_one_changed_roll(checker: Path) -> None:
    rolls = _rolls(SEED, WORDS_SALT, 12).split(",")
    a, b = rolls[7].split("-")
    rolls[7] = f"{a}-{int(b) % 6 + 1}"
    done = _verify(checker, *_values(), "--rolls", "12", "--dice", ",".join(rolls))
    assert done.returncode == 1
    assert "roll 8:" in done.stdout and "MISMATCH" in done.stdout


def test_the_checker_fails_on_a_tampered_seed(checker: Path) -> None:
    tampered = "ac" + SEED[2:]
    done = _verify(checker, *_values(seed=tampered), "--rolls", "6")
    assert done.returncode == 1
    assert "FAILED" in done.stderr
    assert "roll" not in done.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--seed", "xyz", "--salt", "1", "--commitment", "00", "--rolls", "1"],
        ["--seed", "zz" * 32, "--salt", "1", "--commitment", "00", "--rolls", "1"],
        [*_values(), "--rolls", "2", "--dice", "3-1,7-2"],
        [*_values(), "--rolls", "-1"],
    ],
)
def test_the_checker_refuses_malformed_values(checker: Path, args: list[str]) -> None:
    done = _verify(checker, *args)
    assert done.returncode == 2
    assert "error" in done.stderr


def test_words_make_a_versioned_salt() -> None:
    assert WORDS_SALT == "v2.trifoglio7.123456789"
    assert D.words_of_salt(WORDS_SALT) == ("trifoglio7", "123456789")
    assert D.words_of_salt("AgAAAJ5eAQBnZK0F") is None  # a press's id: version 1
    for bad in ("", "a b", "è", "a.b", "x" * 33):
        assert not D.valid_word(bad)
        with pytest.raises(ValueError, match="dice word"):
            D.salt_of_words(bad, "1")


def test_the_checker_runs_as_a_module_without_warnings() -> None:
    args = [*_values(), "--rolls", "3", "--dice", _rolls(SEED, WORDS_SALT, 3)]
    done = subprocess.run(
        [sys.executable, "-W", "error", "-m", "engine.verify_dice", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_the_old_command_never_succeeds_silently() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.dice", "verify", "--rolls", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0 and "verify_dice" in done.stderr
