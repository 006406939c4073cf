"""A small feed-forward network: one hidden layer, sigmoid outputs of game outcomes.

Outputs are probabilities for the side on roll. Classic has five (win, win gammon, win
backgammon, lose gammon, lose backgammon), long has three (win, win mars, lose mars). The
class holds only arrays and arithmetic; reading and writing ``.npz`` files is left to
``engine.ai.model`` and the training script.
"""

from __future__ import annotations

from typing import TypedDict

import numpy as np

from engine.ai.arrays import Floats, Probs, Reals


class Weights(TypedDict):
    """The arrays of a :class:`Network`, as saved in its ``.npz`` file."""

    w1: Floats
    b1: Floats
    w2: Floats
    b2: Floats


class Network:
    """y = sigmoid(W2 . tanh(W1 . x + b1) + b2), evaluated on a batch of rows."""

    def __init__(self, w1: Reals, b1: Reals, w2: Reals, b2: Reals) -> None:
        self.w1 = w1.astype(np.float32)
        self.b1 = b1.astype(np.float32)
        self.w2 = w2.astype(np.float32)
        self.b2 = b2.astype(np.float32)

    @classmethod
    def random(cls, n_in: int, n_hidden: int, n_out: int, seed: int) -> Network:
        rng = np.random.default_rng(seed)
        w1 = rng.normal(0.0, 1.0 / np.sqrt(n_in), (n_in, n_hidden))
        w2 = rng.normal(0.0, 1.0 / np.sqrt(n_hidden), (n_hidden, n_out))
        return cls(w1, np.zeros(n_hidden), w2, np.zeros(n_out))

    @property
    def n_outputs(self) -> int:
        return int(self.w2.shape[1])

    def hidden(self, x: Floats) -> Floats:
        h: Floats = np.tanh(x @ self.w1 + self.b1)
        return h

    def forward(self, x: Floats) -> Floats:
        h = self.hidden(x)
        return _sigmoid(h @ self.w2 + self.b2)

    def gradients(self, x: Floats, target: Probs) -> tuple[Weights, Floats]:
        """Gradients of cross-entropy towards ``target`` (summed over rows), and the outputs."""
        h = self.hidden(x)
        y = _sigmoid(h @ self.w2 + self.b2)
        d_out = (y - target).astype(np.float32)  # dCE/dlogit
        d_h = (d_out @ self.w2.T) * (1.0 - h * h)
        grads: Weights = {
            "w1": x.T @ d_h,
            "b1": d_h.sum(axis=0),
            "w2": h.T @ d_out,
            "b2": d_out.sum(axis=0),
        }
        return grads, y

    def train_batch(self, x: Floats, target: Probs, lr: float) -> float:
        """One gradient step of cross-entropy towards ``target`` (summed over rows)."""
        grads, y = self.gradients(x, target)
        self.w2 -= lr * grads["w2"]
        self.b2 -= lr * grads["b2"]
        self.w1 -= lr * grads["w1"]
        self.b1 -= lr * grads["b1"]
        return float(np.mean(np.abs(y[:, 0] - target[:, 0])))

    def arrays(self) -> Weights:
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}


def _sigmoid(z: Floats) -> Floats:
    one = np.float32(1.0)  # keeps float32 (as a Python 1.0 does at run time)
    return one / (one + np.exp(-np.clip(z, -40.0, 40.0)))
