"""Losses of ``tinyframe.nn.functional`` and their layers: every reduction against NumPy formulas and
PyTorch's numbers (weights, ignore_index, label smoothing, K-dim inputs, probability targets), gradients
of first and second order, node names, dtypes, the fused cross-entropy path and PyTorch's errors."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import tinyframe as tf
import tinyframe.nn as nn
import tinyframe.nn.functional as F
from tinyframe.autograd import gradcheck, gradgradcheck

REDUCTIONS = ["none", "sum", "mean"]

# Fixed inputs (the same arrays produced PyTorch's numbers below).
X = np.array([[0.2, -1.3, 0.7, 2.1, -0.4], [1.5, 0.3, -0.8, 0.0, 0.9], [-2.0, 0.5, 1.1, -0.3, 0.6],
              [0.4, 0.4, -1.2, 1.8, -0.7]])
T = [3, 0, 2, 4]
TI = [3, -100, 2, 4]
W = [0.5, 1.0, 2.0, 1.5, 0.8]
P = np.abs(np.sin(np.arange(20) * 0.9)).reshape(4, 5) + 0.1
P = P / P.sum(1, keepdims=True)
X3 = np.sin(np.arange(12) * 0.7).reshape(2, 3, 2) * 2
T3 = [[0, 2], [1, 1]]
X4 = np.cos(np.arange(24) * 0.45).reshape(2, 3, 2, 2) * 2
T4 = [[[0, 2], [1, 1]], [[2, 2], [0, 1]]]
W3 = [0.7, 1.3, 2.0]
A = np.sin(np.arange(12) * 1.3).reshape(3, 4) * 1.5
B = np.cos(np.arange(12) * 0.8).reshape(3, 4)
PR = ((np.sin(np.arange(12) * 2.1) + 1) / 2 * 0.9 + 0.05).reshape(3, 4)
TG = ((np.cos(np.arange(12) * 1.7) + 1) / 2).reshape(3, 4)
BW = [0.5, 1.0, 2.0, 1.5]
PW = [2.0, 0.5, 1.0, 3.0]
LP = np.log(np.abs(np.sin(np.arange(12) * 0.6)).reshape(3, 4) + 0.2)
KT = np.abs(np.cos(np.arange(12) * 0.4)).reshape(3, 4)
KT[0, 0] = 0.0


def f64(values: object, device: str | None = None, requires_grad: bool = False) -> tf.Tensor:
    return tf.tensor(np.asarray(values, dtype=np.float64), dtype=tf.float64, device=device,
                     requires_grad=requires_grad)


def long(values: object, device: str | None = None) -> tf.Tensor:
    return tf.tensor(values, dtype=tf.int64, device=device)


# --------------------------------------------------------------------------- NumPy references
def np_log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def np_reduce(losses: np.ndarray, reduction: str, denominator: float | None = None) -> np.ndarray:
    if reduction == "none":
        return losses
    if reduction == "sum":
        return losses.sum()
    return losses.sum() / (losses.size if denominator is None else denominator)


def _along_classes(weight: np.ndarray, ndim: int, class_dim: int) -> np.ndarray:
    return weight.reshape([-1 if d == class_dim else 1 for d in range(ndim)])


def np_nll(logp: np.ndarray, target: object, weight: object = None, ignore_index: int = -100,
           reduction: str = "mean") -> np.ndarray:
    t = np.asarray(target)
    classes = np.moveaxis(logp, 1, -1) if logp.ndim > 1 else logp  # (N, d..., C)
    full = np.ones(classes.shape[-1]) if weight is None else np.asarray(weight, dtype=np.float64)
    ignored = t == ignore_index
    safe = np.where(ignored, 0, t)
    picked = np.take_along_axis(classes, safe[..., None], -1)[..., 0]
    w = np.where(ignored, 0.0, full[safe])
    return np_reduce(-w * picked, reduction, w.sum())


def np_cross_entropy(x: np.ndarray, target: object, weight: object = None, ignore_index: int = -100,
                     reduction: str = "mean", label_smoothing: float = 0.0) -> np.ndarray:
    class_dim = 0 if x.ndim == 1 else 1
    n_classes = x.shape[class_dim]
    logp = np_log_softmax(x, class_dim)
    full = np.ones(n_classes) if weight is None else np.asarray(weight, dtype=np.float64)
    w = _along_classes(full, x.ndim, class_dim)
    t = np.asarray(target)
    if t.dtype.kind == "f":  # class probabilities
        q = t * (1 - label_smoothing) + label_smoothing / n_classes
        return np_reduce(-(logp * q * w).sum(class_dim), reduction)
    nll = np_nll(logp, t, weight, ignore_index, reduction)
    if label_smoothing == 0:
        return nll
    ignored = t == ignore_index
    smooth = np.where(ignored, 0.0, -(logp * w).sum(class_dim))
    smooth = np_reduce(smooth, reduction, full[t[~ignored]].sum())
    return (1 - label_smoothing) * nll + label_smoothing / n_classes * smooth


def np_smooth_l1(d: np.ndarray, beta: float) -> np.ndarray:
    return np.where(np.abs(d) < beta, 0.5 * d * d / beta, np.abs(d) - 0.5 * beta)


def np_huber(d: np.ndarray, delta: float) -> np.ndarray:
    return np.where(np.abs(d) < delta, 0.5 * d * d, delta * (np.abs(d) - 0.5 * delta))


def np_bce(x: np.ndarray, t: np.ndarray, w: object = 1.0) -> np.ndarray:
    with np.errstate(divide="ignore"):
        return -np.asarray(w) * (t * np.maximum(np.log(x), -100) + (1 - t) * np.maximum(np.log(1 - x), -100))


def np_bce_logits(x: np.ndarray, t: np.ndarray, w: object = 1.0, pos_weight: object = 1.0) -> np.ndarray:
    s = 1 / (1 + np.exp(-x))
    return -np.asarray(w) * (np.asarray(pos_weight) * t * np.log(s) + (1 - t) * np.log(1 - s))


def np_kl(logp: np.ndarray, t: np.ndarray, log_target: bool = False) -> np.ndarray:
    if log_target:
        return np.exp(t) * (t - logp)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(t == 0, 0.0, t * np.log(t)) - t * logp


# name: (tinyframe call on float64 tensors, NumPy reference), each taking the reduction
CASES = {
    "ce": (lambda r, d: F.cross_entropy(f64(X, d), long(T, d), reduction=r),
           lambda r: np_cross_entropy(X, T, reduction=r)),
    "ce_w": (lambda r, d: F.cross_entropy(f64(X, d), long(T, d), weight=f64(W, d), reduction=r),
             lambda r: np_cross_entropy(X, T, W, reduction=r)),
    "ce_ignore": (lambda r, d: F.cross_entropy(f64(X, d), long(TI, d), reduction=r),
                  lambda r: np_cross_entropy(X, TI, reduction=r)),
    "ce_w_ignore_ls": (lambda r, d: F.cross_entropy(f64(X, d), long(TI, d), weight=f64(W, d), reduction=r,
                                                    label_smoothing=0.1),
                       lambda r: np_cross_entropy(X, TI, W, reduction=r, label_smoothing=0.1)),
    "ce_ls": (lambda r, d: F.cross_entropy(f64(X, d), long(T, d), reduction=r, label_smoothing=0.2),
              lambda r: np_cross_entropy(X, T, reduction=r, label_smoothing=0.2)),
    "ce_ignore1": (lambda r, d: F.cross_entropy(f64(X, d), long([1, 0, 1, 4], d), ignore_index=1, weight=f64(W, d),
                                                reduction=r),
                   lambda r: np_cross_entropy(X, [1, 0, 1, 4], W, ignore_index=1, reduction=r)),
    "ce_probs": (lambda r, d: F.cross_entropy(f64(X, d), f64(P, d), reduction=r),
                 lambda r: np_cross_entropy(X, P, reduction=r)),
    "ce_probs_w_ls": (lambda r, d: F.cross_entropy(f64(X, d), f64(P, d), weight=f64(W, d), reduction=r,
                                                   label_smoothing=0.3),
                      lambda r: np_cross_entropy(X, P, W, reduction=r, label_smoothing=0.3)),
    "ce_3d_w": (lambda r, d: F.cross_entropy(f64(X3, d), long(T3, d), weight=f64(W3, d), reduction=r),
                lambda r: np_cross_entropy(X3, T3, W3, reduction=r)),
    "ce_4d_w_ignore_ls": (lambda r, d: F.cross_entropy(f64(X4, d), long(T4, d), weight=f64(W3, d), ignore_index=1,
                                                       reduction=r, label_smoothing=0.15),
                          lambda r: np_cross_entropy(X4, T4, W3, ignore_index=1, reduction=r, label_smoothing=0.15)),
    "ce_4d": (lambda r, d: F.cross_entropy(f64(X4, d), long(T4, d), reduction=r),
              lambda r: np_cross_entropy(X4, T4, reduction=r)),
    "ce_1d": (lambda r, d: F.cross_entropy(f64(X[0], d), long(2, d), reduction=r),
              lambda r: np_cross_entropy(X[0], 2, reduction=r)),
    "nll_w_ignore": (lambda r, d: F.nll_loss(f64(X, d), long(TI, d), weight=f64(W, d), reduction=r),
                     lambda r: np_nll(X, TI, W, reduction=r)),
    "mse": (lambda r, d: F.mse_loss(f64(A, d), f64(B, d), reduction=r), lambda r: np_reduce((A - B) ** 2, r)),
    "l1": (lambda r, d: F.l1_loss(f64(A, d), f64(B, d), reduction=r), lambda r: np_reduce(np.abs(A - B), r)),
    "smooth_l1": (lambda r, d: F.smooth_l1_loss(f64(A, d), f64(B, d), reduction=r, beta=0.5),
                  lambda r: np_reduce(np_smooth_l1(A - B, 0.5), r)),
    "huber": (lambda r, d: F.huber_loss(f64(A, d), f64(B, d), reduction=r, delta=0.7),
              lambda r: np_reduce(np_huber(A - B, 0.7), r)),
    "bce": (lambda r, d: F.binary_cross_entropy(f64(PR, d), f64(TG, d), reduction=r),
            lambda r: np_reduce(np_bce(PR, TG), r)),
    "bce_w": (lambda r, d: F.binary_cross_entropy(f64(PR, d), f64(TG, d), weight=f64(BW, d), reduction=r),
              lambda r: np_reduce(np_bce(PR, TG, BW), r)),
    "bce_logits": (lambda r, d: F.binary_cross_entropy_with_logits(f64(A, d), f64(TG, d), reduction=r),
                   lambda r: np_reduce(np_bce_logits(A, TG), r)),
    "bce_logits_w_pw": (lambda r, d: F.binary_cross_entropy_with_logits(f64(A, d), f64(TG, d), weight=f64(BW, d),
                                                                        pos_weight=f64(PW, d), reduction=r),
                        lambda r: np_reduce(np_bce_logits(A, TG, BW, PW), r)),
    "kl": (lambda r, d: F.kl_div(f64(LP, d), f64(KT, d), reduction=r), lambda r: np_reduce(np_kl(LP, KT), r)),
    "kl_log_target": (lambda r, d: F.kl_div(f64(LP, d), f64(np.log(KT + 0.1), d), reduction=r, log_target=True),
                      lambda r: np_reduce(np_kl(LP, np.log(KT + 0.1), True), r)),
    "mse_w": (lambda r, d: F.mse_loss(f64(A, d), f64(B, d), reduction=r, weight=f64(np.abs(B), d)),
              lambda r: np_reduce((A - B) ** 2 * np.abs(B), r, np.abs(B).sum())),
    "l1_w": (lambda r, d: F.l1_loss(f64(A, d), f64(B, d), reduction=r, weight=f64(np.abs(B), d)),
             lambda r: np_reduce(np.abs(A - B) * np.abs(B), r, np.abs(B).sum())),
    "huber_w": (lambda r, d: F.huber_loss(f64(A, d), f64(B, d), reduction=r, delta=0.7, weight=f64(np.abs(B), d)),
                lambda r: np_reduce(np_huber(A - B, 0.7) * np.abs(B), r)),
}

# torch.nn.functional on the inputs above in float64 (torch 2.13), flattened; 'grad_*' entries are gradients.
TORCH = {
    ('ce', 'none'): [0.413184471509, 0.776290392948, 0.894858069346, 2.985548427188],
    ('ce_w', 'none'): [0.619776707264, 0.388145196474, 1.789716138692, 2.38843874175],
    ('ce_ignore', 'none'): [0.413184471509, 0.0, 0.894858069346, 2.985548427188],
    ('ce_w_ignore_ls', 'none'): [0.788728435232, 0.0, 1.807548060867, 2.407918485129],
    ('ce_ls', 'none'): [0.781184471509, 1.000290392948, 1.118858069346, 2.817548427188],
    ('ce_ignore1', 'none'): [0.0, 0.388145196474, 0.0, 2.38843874175],
    ('ce_probs', 'none'): [2.34885903876, 1.594622869724, 1.910585036732, 2.173193499061],
    ('ce_probs_w_ls', 'none'): [2.700587902196, 2.013456412426, 2.127205755167, 2.359201543679],
    ('ce_3d_w', 'none'): [1.620942140226, 5.956314086508, 3.50033483508, 2.721533572324],
    ('ce_4d_w_ignore_ls', 'none'): [
        0.620729375193, 5.827274266295, 0.0, 0.0, 6.879761383137, 7.406368922436, 0.619578211759, 0.0],
    ('ce_4d', 'none'): [
        0.102945181907, 3.121917614637, 3.263665751023, 3.18965686378, 3.781842951431, 4.050617758837,
        0.100787284581, 3.160761599984],
    ('ce_1d', 'none'): [1.813184471509],
    ('nll_w_ignore', 'none'): [-3.15, 0.0, -2.2, 0.56],
    ('ce', 'sum'): [5.069881360991],
    ('ce_w', 'sum'): [5.18607678418],
    ('ce_ignore', 'sum'): [4.293590968043],
    ('ce_w_ignore_ls', 'sum'): [5.004194981228],
    ('ce_ls', 'sum'): [5.717881360991],
    ('ce_ignore1', 'sum'): [2.776583938224],
    ('ce_probs', 'sum'): [8.027260444276],
    ('ce_probs_w_ls', 'sum'): [9.200451613468],
    ('ce_3d_w', 'sum'): [13.799124634138],
    ('ce_4d_w_ignore_ls', 'sum'): [21.35371215882],
    ('ce_4d', 'sum'): [20.77219500618],
    ('ce_1d', 'sum'): [1.813184471509],
    ('nll_w_ignore', 'sum'): [-4.79],
    ('ce', 'mean'): [1.267470340248],
    ('ce_w', 'mean'): [1.080432663371],
    ('ce_ignore', 'mean'): [1.431196989348],
    ('ce_w_ignore_ls', 'mean'): [1.163766274704],
    ('ce_ls', 'mean'): [1.429470340248],
    ('ce_ignore1', 'mean'): [2.135833798634],
    ('ce_probs', 'mean'): [2.006815111069],
    ('ce_probs_w_ls', 'mean'): [2.300112903367],
    ('ce_3d_w', 'mean'): [2.603608421535],
    ('ce_4d_w_ignore_ls', 'mean'): [2.885636778219],
    ('ce_4d', 'mean'): [2.596524375773],
    ('ce_1d', 'mean'): [1.813184471509],
    ('nll_w_ignore', 'mean'): [-1.113953488372],
    ('grad_ce_w_ignore_ls', 'mean'): [
        0.031407985375, 0.002875813365, 0.04631492349, -0.095391165968, 0.014792443738, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.005877598461, 0.09528402627, -0.245813189935, 0.037927030794, 0.10672453441, 0.027176628233,
        0.024851046838, -0.003345932184, 0.112660615321, -0.161342358207],
    ('grad_ce', 'mean'): [
        0.024736414924, 0.005519440223, 0.040783453446, -0.084614940939, 0.013575632345, -0.134972581129,
        0.034645592775, 0.011532516012, 0.025666086394, 0.063128385947, 0.004602514794, 0.056070108685,
        -0.147833600825, 0.025193923853, 0.061967053492, 0.037936453769, 0.037936453769, 0.007659237921,
        0.153839906064, -0.237372051522],
    ('grad_ce_4d_w_ignore_ls', 'mean'): [
        0.011787872978, 0.229689363012, 0.0, 0.0, -0.000456704711, 0.002237949294, 0.0, 0.0, -0.011331168267,
        -0.231927312306, 0.0, 0.0, 0.124027989016, 0.198054366314, 0.011997248702, 0.0, 0.113366163526,
        0.040718327097, -0.000704774516, 0.0, -0.237394152542, -0.238772693411, -0.011292474186, 0.0],
    ('mse', 'none'): [
        1.0, 0.56044772851, 0.643928538298, 0.086586312954, 0.106855246614, 0.953207777766, 1.988991317513,
        0.088160497651, 4.99488806775, 3.067145176545, 0.601788976409, 5.249830963871],
    ('l1', 'none'): [
        1.0, 0.748630568779, 0.802451580033, 0.294255523235, 0.326887207785, 0.976323602995, 1.410316034622,
        0.296918334986, 2.234924622387, 1.751326690411, 0.775750589049, 2.291250960474],
    ('smooth_l1', 'none'): [
        0.75, 0.498630568779, 0.552451580033, 0.086586312954, 0.106855246614, 0.726323602995, 1.160316034622,
        0.088160497651, 1.984924622387, 1.501326690411, 0.525750589049, 2.041250960474],
    ('huber', 'none'): [
        0.455, 0.279041398145, 0.316716106023, 0.043293156477, 0.053427623307, 0.438426522097, 0.742221224236,
        0.044080248825, 1.319447235671, 0.980928683288, 0.298025412334, 1.358875672332],
    ('bce', 'none'): [
        0.69314718056, 1.289429712716, 0.149140890015, 0.687541501317, 0.255635784336, 0.538219016999,
        0.715226056655, 0.34088250257, 1.761815764042, 0.735862647604, 1.381260965337, 2.318896210772],
    ('bce_w', 'none'): [
        0.34657359028, 1.289429712716, 0.29828178003, 1.031312251976, 0.127817892168, 0.538219016999, 1.43045211331,
        0.511323753855, 0.880907882021, 0.735862647604, 2.762521930675, 3.478344316158],
    ('bce_logits', 'none'): [
        0.69314718056, 1.027391078125, 1.139885364427, 1.015642729969, 1.474314396706, 0.803234994826,
        1.485638649923, 0.533390533363, 1.192345998978, 0.323675989192, 0.828709427257, 0.213323706404],
    ('bce_logits_w_pw', 'none'): [
        0.69314718056, 0.981304651213, 2.279770728854, 4.285959030235, 1.466619673641, 0.7490323582, 2.971277299845,
        2.091929199248, 1.161366722228, 0.294546549329, 1.657418854514, 0.931739372023],
    ('kl', 'none'): [
        0.0, 0.1714259291, -0.338189277619, -0.425919004219, -0.099295917318, 0.082731582986, 0.101556317057,
        -0.121211487723, -0.180518608112, -0.0729562324, 0.202626012992, -0.156585182011],
    ('kl_log_target', 'none'): [
        -0.069314718056, 0.29527979803, -0.279874437571, -0.430780224313, -0.24720974601, 0.213765797918,
        0.221822006352, -0.02894767372, -0.093752095755, 0.024287439043, 0.340912165343, -0.092789505447],
    ('mse_w', 'none'): [
        1.0, 0.390467692691, 0.018802405714, 0.063848203024, 0.106673034461, 0.623058183294, 0.174034718352,
        0.068374273811, 4.960847499775, 1.865901800013, 0.087560316413, 4.2581012198],
    ('l1_w', 'none'): [
        1.0, 0.52157594009, 0.023431202807, 0.216982173597, 0.326329791806, 0.638167694996, 0.123401219358,
        0.230279729319, 2.219693429516, 1.065421894287, 0.112871736934, 1.858417647502],
    ('huber_w', 'none'): [
        0.455, 0.194410014273, 0.009247959001, 0.031924101512, 0.05333651723, 0.286574699386, 0.064943602608,
        0.034187136905, 1.310455095565, 0.59674925394, 0.04336270757, 1.102174564806],
    ('mse', 'sum'): [19.341830603882],
    ('l1', 'sum'): [12.909035714756],
    ('smooth_l1', 'sum'): [10.022576705968],
    ('huber', 'sum'): [6.329483282734],
    ('bce', 'sum'): [10.867058232923],
    ('bce_w', 'sum'): [13.431046887791],
    ('bce_logits', 'sum'): [10.73070004973],
    ('bce_logits_w_pw', 'sum'): [19.564111619892],
    ('kl', 'sum'): [-0.836335867266],
    ('kl_log_target', 'sum'): [-0.146601194187],
    ('mse_w', 'sum'): [13.617669347349],
    ('l1_w', 'sum'): [8.336572460212],
    ('huber_w', 'sum'): [4.182365652798],
    ('mse', 'mean'): [1.61181921699],
    ('l1', 'mean'): [1.07575297623],
    ('smooth_l1', 'mean'): [0.835214725497],
    ('huber', 'mean'): [0.527456940228],
    ('bce', 'mean'): [0.905588186077],
    ('bce_w', 'mean'): [1.119253907316],
    ('bce_logits', 'mean'): [0.894225004144],
    ('bce_logits_w_pw', 'mean'): [1.630342634991],
    ('kl', 'mean'): [-0.069694655606],
    ('kl_log_target', 'mean'): [-0.012216766182],
    ('mse_w', 'mean'): [1.806911873876],
    ('l1_w', 'mean'): [1.106169593457],
    ('huber_w', 'mean'): [0.348530471067],
    ('kl', 'batchmean'): [-0.278778622422],
    ('bce_edges', 'none'): [0.0, 100.0, 100.0, -0.0],
    ('grad_mse', 'input'): [
        -0.166666666667, 0.124771761463, 0.133741930006, -0.049042587206, -0.054481201298, 0.162720600499,
        0.235052672437, -0.049486389164, -0.372487437064, -0.291887781735, 0.129291764841, 0.381875160079],
    ('grad_mse', 'target'): [
        0.166666666667, -0.124771761463, -0.133741930006, 0.049042587206, 0.054481201298, -0.162720600499,
        -0.235052672437, 0.049486389164, 0.372487437064, 0.291887781735, -0.129291764841, -0.381875160079],
    ('grad_smooth_l1', 'input'): [
        -0.083333333333, 0.083333333333, 0.083333333333, -0.049042587206, -0.054481201298, 0.083333333333,
        0.083333333333, -0.049486389164, -0.083333333333, -0.083333333333, 0.083333333333, 0.083333333333],
    ('grad_smooth_l1', 'target'): [
        0.083333333333, -0.083333333333, -0.083333333333, 0.049042587206, 0.054481201298, -0.083333333333,
        -0.083333333333, 0.049486389164, 0.083333333333, 0.083333333333, -0.083333333333, -0.083333333333],
    ('grad_huber', 'input'): [
        -0.058333333333, 0.058333333333, 0.058333333333, -0.024521293603, -0.027240600649, 0.058333333333,
        0.058333333333, -0.024743194582, -0.058333333333, -0.058333333333, 0.058333333333, 0.058333333333],
    ('grad_huber', 'target'): [
        0.058333333333, -0.058333333333, -0.058333333333, 0.024521293603, 0.027240600649, -0.058333333333,
        -0.058333333333, 0.024743194582, 0.058333333333, 0.058333333333, -0.058333333333, -0.058333333333],
    ('grad_bce_logits_w_pw', 'input'): [
        -0.041666666667, 0.034603232044, 0.111270509199, -0.180264813223, -0.060966379073, 0.035231184227,
        0.112396865625, -0.119863293611, -0.046589961338, 0.018024719279, 0.048354656948, -0.068569970715],
    ('grad_bce_logits_w_pw', 'target'): [
        0.028881132523, -0.129261879999, -0.128875342955, 0.463080435868, 0.120251351112, -0.049588598876,
        -0.249635836344, 0.060717074495, 0.114052248852, 0.036091705635, -0.105041759207, -0.13375412869],
    ('grad_bce_w', 'input'): [
        -1.0, 4.569281336081, 1.896393465132, -1.08878502084, -0.245475744199, -1.016772299078, 2.980835166236,
        -0.177583053589, -3.621185068612, 1.930598238975, 9.497822548046, -15.342113797402],
    ('grad_bce_w', 'target'): [
        -0.0, -2.074947080263, 4.227014515444, -0.045400997021, -1.018216276674, 2.152081145563, -0.121079937164,
        -2.996987777688, 1.095316351936, -0.090823218908, -3.919299407418, 3.343682168259],
    ('grad_bce_edges', 'input'): [-1000000003995.8029, 1000000003995.8029, -2.0],
}


@pytest.fixture(autouse=True)
def _quiet_kl_mean_warning() -> None:
    warnings.filterwarnings("ignore", message="reduction: 'mean' divides the total loss")


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", CASES)
def test_loss_matches_numpy_formula_and_torch(name: str, reduction: str, device: str) -> None:
    call, reference = CASES[name]
    out = call(reduction, device)
    assert out.dtype == tf.float64
    assert out.shape == np.shape(reference(reduction))
    np.testing.assert_allclose(out.cpu().numpy(), reference(reduction), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out.cpu().numpy().reshape(-1), TORCH[(name, reduction)], rtol=1e-9, atol=1e-11)


def test_kl_div_batchmean_divides_by_the_batch_size() -> None:
    out = F.kl_div(f64(LP), f64(KT), reduction="batchmean")
    np.testing.assert_allclose(out.numpy(), np_kl(LP, KT).sum() / 3, rtol=1e-12)
    np.testing.assert_allclose(out.numpy(), TORCH[("kl", "batchmean")][0], rtol=1e-9)


def test_binary_cross_entropy_clamps_its_logs_at_minus_100() -> None:
    out = F.binary_cross_entropy(f64([0.0, 1.0, 0.0, 1.0]), f64([0.0, 0.0, 1.0, 1.0]), reduction="none")
    np.testing.assert_array_equal(out.numpy(), TORCH[("bce_edges", "none")])
    x = f64([0.0, 1.0, 0.5], requires_grad=True)
    F.binary_cross_entropy(x, f64([1.0, 0.0, 1.0]), reduction="sum").backward()
    np.testing.assert_allclose(x.grad.numpy(), TORCH[("grad_bce_edges", "input")], rtol=1e-12)


@pytest.mark.parametrize("name, call", [
    ("grad_ce", lambda x: F.cross_entropy(x, long(T))),
    ("grad_ce_w_ignore_ls", lambda x: F.cross_entropy(x, long(TI), weight=f64(W), label_smoothing=0.1)),
])
def test_cross_entropy_gradient_matches_torch(name: str, call: object) -> None:
    x = f64(X, requires_grad=True)
    call(x).backward()
    np.testing.assert_allclose(x.grad.numpy().reshape(-1), TORCH[(name, "mean")], rtol=1e-9, atol=1e-12)


def test_k_dim_cross_entropy_gradient_matches_torch() -> None:
    x = f64(X4, requires_grad=True)
    F.cross_entropy(x, long(T4), weight=f64(W3), ignore_index=1, label_smoothing=0.15).backward()
    np.testing.assert_allclose(x.grad.numpy().reshape(-1), TORCH[("grad_ce_4d_w_ignore_ls", "mean")], rtol=1e-9,
                               atol=1e-12)


@pytest.mark.parametrize("name, call, target", [
    ("mse", lambda a, b: F.mse_loss(a, b), B),
    ("smooth_l1", lambda a, b: F.smooth_l1_loss(a, b, beta=0.5), B),
    ("huber", lambda a, b: F.huber_loss(a, b, delta=0.7), B),
    ("bce_logits_w_pw", lambda a, b: F.binary_cross_entropy_with_logits(a, b, weight=f64(BW), pos_weight=f64(PW)), TG),
    ("bce_w", lambda a, b: F.binary_cross_entropy(a, b, weight=f64(BW), reduction="sum"), TG),
])
def test_input_and_target_gradients_match_torch(name: str, call: object, target: np.ndarray) -> None:
    a = f64(PR if name == "bce_w" else A, requires_grad=True)
    b = f64(target, requires_grad=True)
    call(a, b).backward()
    np.testing.assert_allclose(a.grad.numpy().reshape(-1), TORCH[("grad_" + name, "input")], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(b.grad.numpy().reshape(-1), TORCH[("grad_" + name, "target")], rtol=1e-9, atol=1e-12)


# --------------------------------------------------------------------------- gradients vs finite differences
# name: (loss of the differentiable inputs, their float64 values); targets that PyTorch differentiates are
# inputs too.
GRAD_CASES = {
    "ce": (lambda r: lambda x: F.cross_entropy(x, long(T), reduction=r), [X]),
    "ce_w_ignore_ls": (lambda r: lambda x: F.cross_entropy(x, long(TI), weight=f64(W), reduction=r,
                                                           label_smoothing=0.1), [X]),
    "ce_ignore1": (lambda r: lambda x: F.cross_entropy(x, long([1, 0, 1, 4]), ignore_index=1, reduction=r), [X]),
    "ce_probs_w_ls": (lambda r: lambda x, p: F.cross_entropy(x, p, weight=f64(W), reduction=r, label_smoothing=0.3),
                      [X, P]),
    "ce_3d_w": (lambda r: lambda x: F.cross_entropy(x, long(T3), weight=f64(W3), reduction=r), [X3]),
    "ce_4d_w_ignore_ls": (lambda r: lambda x: F.cross_entropy(x, long(T4), weight=f64(W3), ignore_index=1,
                                                              reduction=r, label_smoothing=0.15), [X4]),
    "ce_1d": (lambda r: lambda x: F.cross_entropy(x, long(2), reduction=r), [X[0]]),
    "nll_w_ignore": (lambda r: lambda x: F.nll_loss(x, long(TI), weight=f64(W), reduction=r), [X]),
    "mse": (lambda r: lambda a, b: F.mse_loss(a, b, reduction=r), [A, B]),
    "mse_broadcast": (lambda r: lambda a, b: F.mse_loss(a, b, reduction=r), [A, B[:1]]),
    "l1": (lambda r: lambda a, b: F.l1_loss(a, b, reduction=r), [A, B]),
    "smooth_l1": (lambda r: lambda a, b: F.smooth_l1_loss(a, b, reduction=r, beta=0.5), [A, B]),
    "huber": (lambda r: lambda a, b: F.huber_loss(a, b, reduction=r, delta=0.7), [A, B]),
    "bce": (lambda r: lambda x, t: F.binary_cross_entropy(x, t, weight=f64(BW), reduction=r),
            [PR, TG * 0.9 + 0.05]),  # targets inside (0, 1): finite differences stay in range
    "bce_logits": (lambda r: lambda x, t: F.binary_cross_entropy_with_logits(x, t, reduction=r), [A, TG]),
    "bce_logits_w_pw": (lambda r: lambda x, t: F.binary_cross_entropy_with_logits(
        x, t, weight=f64(BW), pos_weight=f64(PW), reduction=r), [A, TG]),
    "kl": (lambda r: lambda x, t: F.kl_div(x, t, reduction=r), [LP, KT + 0.05]),
    "kl_log_target": (lambda r: lambda x, t: F.kl_div(x, t, reduction=r, log_target=True), [LP, np.log(KT + 0.1)]),
}


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", GRAD_CASES)
def test_loss_gradients_match_finite_differences(name: str, reduction: str, device: str) -> None:
    make, values = GRAD_CASES[name]
    fn = make(reduction)
    with warnings.catch_warnings(), tf.device(device):  # targets and weights made inside are on device too
        warnings.simplefilter("ignore")  # mse_broadcast warns about its shapes on every call
        inputs = [f64(v, requires_grad=True) for v in values]
        assert gradcheck(fn, inputs)
        assert gradgradcheck(fn, inputs)


# --------------------------------------------------------------------------- dtypes and node names
FLOAT32_CASES = {
    "cross_entropy": (lambda x, d: F.cross_entropy(x, long(T, d)), X, "NllLossBackward0"),
    "cross_entropy_sum": (lambda x, d: F.cross_entropy(x, long(T, d), reduction="sum"), X, "NllLossBackward0"),
    "cross_entropy_weight": (lambda x, d: F.cross_entropy(x, long(T, d), weight=tf.tensor(W, device=d)), X,
                             "NllLossBackward0"),
    "cross_entropy_smoothing": (lambda x, d: F.cross_entropy(x, long(T, d), label_smoothing=0.1), X, "AddBackward0"),
    "cross_entropy_probs": (lambda x, d: F.cross_entropy(x, tf.tensor(P, dtype=tf.float32, device=d)), X,
                            "DivBackward1"),
    "cross_entropy_4d": (lambda x, d: F.cross_entropy(x, long(T4, d)), X4, "NllLoss2DBackward0"),
    "cross_entropy_3d": (lambda x, d: F.cross_entropy(x, long(T3, d)), X3, "NllLoss2DBackward0"),
    "cross_entropy_3d_none": (lambda x, d: F.cross_entropy(x, long(T3, d), reduction="none"), X3, "ViewBackward0"),
    "cross_entropy_4d_none": (lambda x, d: F.cross_entropy(x, long(T4, d), reduction="none"), X4,
                              "NllLoss2DBackward0"),
    "nll_loss": (lambda x, d: F.nll_loss(x, long(T, d)), X, "NllLossBackward0"),
    "mse_loss": (lambda x, d: F.mse_loss(x, x.detach() * 0.5), A, "MseLossBackward0"),
    "mse_loss_none": (lambda x, d: F.mse_loss(x, x.detach() * 0.5, reduction="none"), A, "MseLossBackward0"),
    "l1_loss": (lambda x, d: F.l1_loss(x, x.detach() * 0.5), A, "MeanBackward0"),
    "l1_loss_none": (lambda x, d: F.l1_loss(x, x.detach() * 0.5, reduction="none"), A, "AbsBackward0"),
    "smooth_l1_loss": (lambda x, d: F.smooth_l1_loss(x, x.detach() * 0.5), A, "SmoothL1LossBackward0"),
    "huber_loss": (lambda x, d: F.huber_loss(x, x.detach() * 0.5), A, "HuberLossBackward0"),
    "binary_cross_entropy": (lambda x, d: F.binary_cross_entropy(x, x.detach() * 0.5), PR,
                             "BinaryCrossEntropyBackward0"),
    "binary_cross_entropy_with_logits": (lambda x, d: F.binary_cross_entropy_with_logits(x, x.detach() * 0 + 0.5), A,
                                         "BinaryCrossEntropyWithLogitsBackward0"),
    "kl_div": (lambda x, d: F.kl_div(x, x.detach().exp()), LP, "MeanBackward0"),
    "kl_div_none": (lambda x, d: F.kl_div(x, x.detach().exp(), reduction="none"), LP, "SubBackward0"),
    "kl_div_batchmean": (lambda x, d: F.kl_div(x, x.detach().exp(), reduction="batchmean"), LP, "DivBackward0"),
    "kl_div_sum": (lambda x, d: F.kl_div(x, x.detach().exp(), reduction="sum"), LP, "SumBackward0"),
}


@pytest.mark.parametrize("name", FLOAT32_CASES)
def test_float32_loss_stays_float32_and_names_its_node_like_torch(name: str, device: str) -> None:
    call, values, node = FLOAT32_CASES[name]
    x = tf.tensor(np.asarray(values, dtype=np.float32), device=device, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = call(x, device)
    assert out.dtype == tf.float32
    assert out.grad_fn.name() == node
    out.sum().backward()
    assert x.grad.dtype == tf.float32 and x.grad.shape == x.shape


def test_float32_cross_entropy_matches_float64_closely() -> None:
    out = F.cross_entropy(tf.tensor(X, dtype=tf.float32), long(T))
    np.testing.assert_allclose(out.item(), TORCH[("ce", "mean")][0], rtol=1e-6)


def test_mse_loss_promotes_mixed_float_dtypes() -> None:
    out = F.mse_loss(tf.ones(3), tf.zeros(3, dtype=tf.float64))
    assert out.dtype == tf.float64


# --------------------------------------------------------------------------- cross entropy
def test_cross_entropy_backward_twice_with_retain_graph() -> None:
    x = f64(X, requires_grad=True)
    loss = F.cross_entropy(x, long(T))
    loss.backward(retain_graph=True)
    first = x.grad.numpy().copy()
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * first, rtol=1e-12)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        loss.backward()


def test_cross_entropy_is_stable_for_huge_logits() -> None:
    x = tf.tensor([[1000.0, 0.0, -1000.0], [-1e4, -1e4 + 1.0, -1e4 - 1.0]], requires_grad=True)
    loss = F.cross_entropy(x, long([0, 1]), reduction="none")
    np.testing.assert_allclose(loss.detach().numpy(), [0.0, np.log(1 + np.exp(-1) + np.exp(-2))], rtol=1e-5,
                               atol=1e-6)
    loss.sum().backward()
    assert np.isfinite(x.grad.numpy()).all()


def test_cross_entropy_keeps_no_input_so_an_in_place_change_after_it_is_allowed() -> None:
    x = f64(X, requires_grad=True)
    h = x * 1.0
    loss = F.cross_entropy(h, long(T))
    h.add_(1.0)  # as in PyTorch: log_softmax keeps its output, nll_loss no logits
    loss.backward()
    x2 = f64(X, requires_grad=True)
    F.cross_entropy(x2, long(T)).backward()
    np.testing.assert_allclose(x.grad.numpy(), x2.grad.numpy(), rtol=1e-12)


def test_cross_entropy_of_a_long_row_and_an_empty_batch() -> None:
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((3, 100))
    out = F.cross_entropy(f64(logits), long([5, 99, 0]))
    np.testing.assert_allclose(out.numpy(), np_cross_entropy(logits, [5, 99, 0]), rtol=1e-12)
    assert np.isnan(F.cross_entropy(tf.zeros(0, 5), tf.zeros(0, dtype=tf.int64)).item())
    assert F.cross_entropy(tf.zeros(0, 5), tf.zeros(0, dtype=tf.int64), reduction="sum").item() == 0.0


def test_cross_entropy_accepts_uint8_targets_and_all_ignored_gives_nan() -> None:
    out = F.cross_entropy(f64(X), tf.tensor(T, dtype=tf.uint8))
    np.testing.assert_allclose(out.item(), TORCH[("ce", "mean")][0], rtol=1e-12)
    assert np.isnan(F.cross_entropy(f64(X), long([-100] * 4)).item())
    assert np.isnan(F.cross_entropy(f64(X), long([-100] * 4), label_smoothing=0.1).item())


def test_negative_label_smoothing_is_no_smoothing() -> None:
    out = F.cross_entropy(f64(X), long(T), label_smoothing=-0.1)
    np.testing.assert_allclose(out.item(), TORCH[("ce", "mean")][0], rtol=1e-12)


# --------------------------------------------------------------------------- errors
ERRORS = [
    (lambda: F.cross_entropy(f64(X[:3]), long([0, 1])), ValueError,
     r"Expected input batch_size \(3\) to match target batch_size \(2\)\."),
    (lambda: F.cross_entropy(f64(X), f64(T)), RuntimeError, "expected target dtype to be Long or Byte, but got Double"),
    (lambda: F.cross_entropy(f64(X), tf.tensor(T, dtype=tf.int32)), RuntimeError,
     "expected target dtype to be Long or Byte, but got Int"),
    (lambda: F.cross_entropy(f64(X), long([0, 10, 2, 1])), IndexError, "Target 10 is out of bounds."),
    (lambda: F.cross_entropy(f64(X), long([0, -1, 2, 1])), IndexError, "Target -1 is out of bounds."),
    (lambda: F.cross_entropy(f64(X4), long(np.full((2, 2, 2), 7))), IndexError, "Target 7 is out of bounds."),
    (lambda: F.cross_entropy(f64(X), long(T), weight=f64([1.0, 2.0])), RuntimeError,
     r"weight tensor should be defined either for all 5 classes or no classes but got weight tensor of shape: \[2\]"),
    (lambda: F.cross_entropy(f64(X4), long(T4), weight=f64([1.0, 2.0])), RuntimeError,
     "weight tensor should be defined either for all or no classes"),
    (lambda: F.nll_loss(f64(X), long(T), weight=tf.ones(5)), RuntimeError,
     "expected scalar type Double but found Float"),
    (lambda: F.cross_entropy(f64(X), long(np.zeros((4, 2), dtype=np.int64))), RuntimeError,
     "0D or 1D target tensor expected, multi-target not supported"),
    (lambda: F.cross_entropy(f64(X3), long([[0, 1, 1], [0, 0, 0]])), RuntimeError,
     r"Expected target size \[2, 2\], got \[2, 3\]"),
    (lambda: F.cross_entropy(f64(X4), long(np.zeros((2, 3, 3), dtype=np.int64))), RuntimeError,
     r"size mismatch \(got input: \[2, 3, 2, 2\] , target: \[2, 3, 3\]"),
    (lambda: F.cross_entropy(f64(X4), long([[0, 1], [1, 1]])), RuntimeError,
     "only batches of spatial targets supported \\(3D tensors\\) but got targets of dimension: 2"),
    (lambda: F.cross_entropy(f64(X), long(P.astype(np.int64))), RuntimeError,
     "Expected floating point type for target with class probabilities, got Long"),
    (lambda: F.cross_entropy(f64(X), f64(P), ignore_index=1), RuntimeError,
     "ignore_index is not supported for floating point target"),
    (lambda: F.cross_entropy(f64(X), f64(P), weight=f64([1.0])), RuntimeError,
     r"cross_entropy: weight tensor should be defined either for all 5 classes"),
    (lambda: F.cross_entropy(f64(X), long(T), label_smoothing=1.1), RuntimeError,
     "label_smoothing must be between 0.0 and 1.0. Got: 1.1"),
    (lambda: F.cross_entropy(f64(X), long(T), reduction="avg"), ValueError, "avg is not a valid value for reduction"),
    (lambda: F.cross_entropy(tf.ones(4, 5, dtype=tf.int64), long(T)), NotImplementedError,
     "not implemented for 'Long'"),
    (lambda: F.nll_loss(f64(1.0), long(0)), ValueError, r"Expected 1 or more dimensions \(got 0\)"),
    (lambda: F.mse_loss(f64(A), f64(B), reduction="avg"), ValueError, "avg is not a valid value for reduction"),
    (lambda: F.mse_loss(tf.ones(3, dtype=tf.int64), tf.ones(3, dtype=tf.int64)), NotImplementedError,
     "\"mse_cpu\" not implemented for 'Long'"),
    (lambda: F.mse_loss(f64(A), f64(B), weight=f64([1.0])), ValueError, "Weights and input must have the same size."),
    (lambda: F.smooth_l1_loss(f64(A), f64(B), beta=-1.0), RuntimeError,
     "smooth_l1_loss does not support negative values for beta."),
    (lambda: F.huber_loss(f64(A), f64(B), delta=0.0), RuntimeError,
     "huber_loss does not support non-positive values for delta."),
    (lambda: F.binary_cross_entropy(f64(PR), f64(TG[:, :1])), ValueError,
     r"Using a target size \(tinyframe.Size\(\[3, 1\]\)\) that is different to the input size "
     r"\(tinyframe.Size\(\[3, 4\]\)\) is deprecated. Please ensure they have the same size."),
    (lambda: F.binary_cross_entropy(f64([1.5]), f64([1.0])), RuntimeError,
     "all elements of input should be between 0 and 1"),
    (lambda: F.binary_cross_entropy(f64([0.5]), f64([2.0])), RuntimeError,
     "all elements of target should be between 0 and 1"),
    (lambda: F.binary_cross_entropy(tf.tensor([0.5]), f64([1.0])), RuntimeError,
     "Found dtype Double but expected Float"),
    (lambda: F.binary_cross_entropy(f64([0.5, 0.5]), f64([1.0, 0.0]), weight=f64([[1.0], [2.0]])), RuntimeError,
     r"output with shape \[2\] doesn't match the broadcast shape \[2, 2\]"),
    (lambda: F.binary_cross_entropy_with_logits(f64(A), f64(TG[:, :1])), ValueError,
     r"Target size \(tinyframe.Size\(\[3, 1\]\)\) must be the same as input size \(tinyframe.Size\(\[3, 4\]\)\)"),
    (lambda: F.kl_div(f64(LP), f64(KT), reduction="avg"), ValueError, "avg is not a valid value for reduction"),
    (lambda: F.kl_div(f64(LP), long(np.ones((3, 4), dtype=np.int64))), RuntimeError,
     "kl_div: Integral inputs not supported."),
]


@pytest.mark.parametrize("call, error, message", ERRORS, ids=[e[2][:60] for e in ERRORS])
def test_loss_errors_match_torch(call: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("fn", [F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.huber_loss])
def test_elementwise_losses_warn_when_target_broadcasts(fn: object) -> None:
    with pytest.warns(UserWarning, match=r"Using a target size \(tinyframe.Size\(\[3\]\)\) that is different to the "
                                         r"input size \(tinyframe.Size\(\[3, 1\]\)\)"):
        out = fn(tf.zeros(3, 1), tf.ones(3))
    assert out.shape == ()


def test_kl_div_mean_warns_like_torch() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        F.kl_div(f64(LP), f64(KT))
    assert any("'batchmean' divides only by the batch size" in str(w.message) for w in caught)


def test_legacy_size_average_and_reduce_map_to_reduction() -> None:
    with pytest.warns(UserWarning, match="please use reduction='sum' instead"):
        out = F.mse_loss(f64(A), f64(B), size_average=False)
    np.testing.assert_allclose(out.numpy(), TORCH[("mse", "sum")][0], rtol=1e-12)
    with pytest.warns(UserWarning, match="please use reduction='none' instead"):
        loss = nn.CrossEntropyLoss(reduce=False)
    assert loss.reduction == "none"


# --------------------------------------------------------------------------- layers
LAYERS = [
    (nn.MSELoss(), "MSELoss()", "mse", lambda: (f64(A), f64(B))),
    (nn.MSELoss(reduction="sum"), "MSELoss()", "mse", lambda: (f64(A), f64(B))),
    (nn.L1Loss(reduction="none"), "L1Loss()", "l1", lambda: (f64(A), f64(B))),
    (nn.SmoothL1Loss(beta=0.5), "SmoothL1Loss()", "smooth_l1", lambda: (f64(A), f64(B))),
    (nn.HuberLoss(delta=0.7), "HuberLoss()", "huber", lambda: (f64(A), f64(B))),
    (nn.CrossEntropyLoss(), "CrossEntropyLoss()", "ce", lambda: (f64(X), long(T))),
    (nn.CrossEntropyLoss(weight=f64(W), ignore_index=-100, label_smoothing=0.1, reduction="sum"),
     "CrossEntropyLoss()", "ce_w_ignore_ls", lambda: (f64(X), long(TI))),
    (nn.CrossEntropyLoss(weight=f64(W), ignore_index=1), "CrossEntropyLoss()", "ce_ignore1",
     lambda: (f64(X), long([1, 0, 1, 4]))),
    (nn.NLLLoss(weight=f64(W), reduction="none"), "NLLLoss()", "nll_w_ignore", lambda: (f64(X), long(TI))),
    (nn.BCELoss(weight=f64(BW)), "BCELoss()", "bce_w", lambda: (f64(PR), f64(TG))),
    (nn.BCEWithLogitsLoss(weight=f64(BW), pos_weight=f64(PW)), "BCEWithLogitsLoss()", "bce_logits_w_pw",
     lambda: (f64(A), f64(TG))),
    (nn.KLDivLoss(reduction="sum"), "KLDivLoss()", "kl", lambda: (f64(LP), f64(KT))),
    (nn.KLDivLoss(reduction="batchmean"), "KLDivLoss()", "kl", lambda: (f64(LP), f64(KT))),
]


@pytest.mark.parametrize("layer, text, name, inputs", LAYERS, ids=[f"{t}-{n}" for _, t, n, _ in LAYERS])
def test_loss_layer_repr_and_forward_match_torch(layer: nn.Module, text: str, name: str, inputs: object) -> None:
    assert repr(layer) == text
    out = layer(*inputs())
    np.testing.assert_allclose(out.numpy().reshape(-1), TORCH[(name, layer.reduction)], rtol=1e-9, atol=1e-11)


def test_loss_layers_keep_options_and_weights_as_buffers() -> None:
    loss = nn.CrossEntropyLoss()
    assert (loss.reduction, loss.ignore_index, loss.label_smoothing, loss.weight) == ("mean", -100, 0.0, None)
    assert list(loss.state_dict()) == []
    weighted = nn.CrossEntropyLoss(weight=tf.ones(3))
    assert list(weighted.state_dict()) == ["weight"]
    assert list(nn.NLLLoss(weight=tf.ones(3)).state_dict()) == ["weight"]
    assert list(nn.BCELoss(weight=tf.ones(3)).state_dict()) == ["weight"]
    assert list(nn.BCEWithLogitsLoss(weight=tf.ones(3), pos_weight=tf.ones(3)).state_dict()) == ["weight", "pos_weight"]
    assert list(nn.BCEWithLogitsLoss()._buffers.items()) == [("weight", None), ("pos_weight", None)]
    assert weighted.double().weight.dtype == tf.float64
    assert nn.SmoothL1Loss().beta == 1.0 and nn.HuberLoss().delta == 1.0 and not nn.KLDivLoss().log_target


def test_cross_entropy_layer_trains_a_classifier() -> None:
    rng = np.random.default_rng(0)
    x = tf.tensor(rng.standard_normal((64, 4)).astype(np.float32))
    y = tf.tensor((rng.standard_normal(64) > 0).astype(np.int64))
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    loss_fn = nn.CrossEntropyLoss()
    first = None
    for _ in range(30):
        loss = loss_fn(model(x), y)
        first = first if first is not None else loss.item()
        model.zero_grad()
        loss.backward()
        for p in model.parameters():
            p.data = p.data - 0.5 * p.grad
    assert loss.item() < first
