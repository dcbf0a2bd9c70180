"""tinyframe.optim.lr_scheduler: each scheduler's learning rates against PyTorch's, state_dict round
trips, and PyTorch's warnings and errors.

The expected sequences (``get_last_lr()`` after construction, then after each of 15 steps, for an
optimizer with two groups at lr 0.1 and 0.01) were produced by torch 2.13 and are hard-coded.
"""
from __future__ import annotations

import copy
import re
import warnings

import pytest

import tinyframe
import tinyframe.optim as optim
from tinyframe.optim import lr_scheduler

METRICS = [1.0, 0.9, 0.95, 0.95, 0.96, 0.97, 0.8, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85, 0.85]

SCHEDULERS = {
    "StepLR": lambda o: lr_scheduler.StepLR(o, step_size=4, gamma=0.5),
    "MultiStepLR": lambda o: lr_scheduler.MultiStepLR(o, milestones=[3, 7, 7, 12], gamma=0.3),
    "ExponentialLR": lambda o: lr_scheduler.ExponentialLR(o, gamma=0.8),
    "CosineAnnealingLR": lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.001),
    "LambdaLR": lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 1 / (e + 1)),
    "LambdaLR_list": lambda o: lr_scheduler.LambdaLR(o, lr_lambda=[lambda e: 0.9 ** e, lambda e: e + 1]),
    "OneCycleLR_cos": lambda o: lr_scheduler.OneCycleLR(o, max_lr=[1.0, 0.1], total_steps=15),
    "OneCycleLR_linear3": lambda o: lr_scheduler.OneCycleLR(
        o, max_lr=0.5, epochs=3, steps_per_epoch=5, pct_start=0.25, anneal_strategy="linear", three_phase=True,
        div_factor=10.0, final_div_factor=100.0),
    "OneCycleLR_adam": lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.2, total_steps=15, base_momentum=0.8,
                                                         max_momentum=0.9),
    "ReduceLROnPlateau": lambda o: lr_scheduler.ReduceLROnPlateau(o, patience=2, factor=0.5, cooldown=1,
                                                                  min_lr=[0.02, 0.001]),
    "ReduceLROnPlateau_max_abs": lambda o: lr_scheduler.ReduceLROnPlateau(
        o, mode="max", threshold=0.05, threshold_mode="abs", patience=1, factor=0.1),
    "CosineAnnealingWarmRestarts": lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3, eta_min=0.001),
    "CosineAnnealingWarmRestarts_mult": lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2),
    "CyclicLR_triangular": lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=3),
    "CyclicLR_triangular2": lambda o: lr_scheduler.CyclicLR(o, base_lr=[0.01, 0.001], max_lr=[0.1, 0.05],
                                                            step_size_up=2, step_size_down=3, mode="triangular2"),
    "CyclicLR_exp_range_adam": lambda o: lr_scheduler.CyclicLR(o, base_lr=0.001, max_lr=0.01, step_size_up=3,
                                                               mode="exp_range", gamma=0.9, base_momentum=0.85,
                                                               max_momentum=0.95),
    "LinearLR": lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, end_factor=0.75, total_iters=6),
    "PolynomialLR": lambda o: lr_scheduler.PolynomialLR(o, total_iters=8, power=2.0),
    "ConstantLR": lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=4),
    "MultiplicativeLR": lambda o: lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda e: 0.95),
    "SequentialLR": lambda o: lr_scheduler.SequentialLR(
        o, [lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3), lr_scheduler.ExponentialLR(o, gamma=0.9),
            lr_scheduler.CosineAnnealingLR(o, T_max=4)], milestones=[4, 9]),
    "ChainedScheduler": lambda o: lr_scheduler.ChainedScheduler(
        [lr_scheduler.LinearLR(o, start_factor=0.1, total_iters=3), lr_scheduler.StepLR(o, step_size=4, gamma=0.5)]),
}

EXPECTED_LRS = {
    'StepLR': [
        [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.05, 0.005], [0.05, 0.005], [0.05, 0.005],
        [0.05, 0.005], [0.025, 0.0025], [0.025, 0.0025], [0.025, 0.0025], [0.025, 0.0025], [0.0125, 0.00125],
        [0.0125, 0.00125], [0.0125, 0.00125], [0.0125, 0.00125],
    ],
    'MultiStepLR': [
        [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.03, 0.003], [0.03, 0.003], [0.03, 0.003], [0.03, 0.003],
        [0.0026999999999999997, 0.00027], [0.0026999999999999997, 0.00027], [0.0026999999999999997, 0.00027],
        [0.0026999999999999997, 0.00027], [0.0026999999999999997, 0.00027], [0.0008099999999999998, 8.1e-05],
        [0.0008099999999999998, 8.1e-05], [0.0008099999999999998, 8.1e-05], [0.0008099999999999998, 8.1e-05],
    ],
    'ExponentialLR': [
        [0.1, 0.01], [0.08000000000000002, 0.008], [0.06400000000000002, 0.0064], [0.051200000000000016, 0.00512],
        [0.04096000000000002, 0.004096000000000001], [0.03276800000000001, 0.0032768000000000007],
        [0.026214400000000013, 0.002621440000000001], [0.02097152000000001, 0.002097152000000001],
        [0.016777216000000008, 0.001677721600000001], [0.013421772800000007, 0.0013421772800000008],
        [0.010737418240000006, 0.0010737418240000006], [0.008589934592000005, 0.0008589934592000006],
        [0.0068719476736000045, 0.0006871947673600005], [0.005497558138880004, 0.0005497558138880005],
        [0.004398046511104004, 0.0004398046511104004], [0.0035184372088832034, 0.00035184372088832035],
    ],
    'CosineAnnealingLR': [
        [0.1, 0.01], [0.09336825748732973, 0.009397114317029977], [0.07525000000000001, 0.007750000000000002],
        [0.0505, 0.0055000000000000005], [0.025750000000000012, 0.003250000000000001],
        [0.007631742512670284, 0.0016028856829700259], [0.001, 0.001],
        [0.007631742512670284, 0.0016028856829700259], [0.025750000000000002, 0.0032500000000000003],
        [0.05050000000000004, 0.005500000000000003], [0.07525000000000008, 0.007750000000000007],
        [0.0933682574873298, 0.00939711431702998], [0.1000000000000001, 0.010000000000000009],
        [0.09336825748732981, 0.00939711431702998], [0.07525000000000011, 0.007750000000000007],
        [0.050500000000000114, 0.005500000000000008],
    ],
    'LambdaLR': [
        [0.1, 0.01], [0.05, 0.005], [0.03333333333333333, 0.003333333333333333], [0.025, 0.0025],
        [0.020000000000000004, 0.002], [0.016666666666666666, 0.0016666666666666666],
        [0.014285714285714285, 0.0014285714285714286], [0.0125, 0.00125],
        [0.011111111111111112, 0.0011111111111111111], [0.010000000000000002, 0.001],
        [0.009090909090909092, 0.0009090909090909091], [0.008333333333333333, 0.0008333333333333333],
        [0.007692307692307693, 0.0007692307692307693], [0.007142857142857143, 0.0007142857142857143],
        [0.006666666666666667, 0.0006666666666666666], [0.00625, 0.000625],
    ],
    'LambdaLR_list': [
        [0.1, 0.01], [0.09000000000000001, 0.02], [0.08100000000000002, 0.03], [0.0729, 0.04], [0.06561, 0.05],
        [0.05904900000000001, 0.06], [0.05314410000000001, 0.07], [0.04782969000000001, 0.08],
        [0.04304672100000001, 0.09], [0.03874204890000001, 0.1], [0.03486784401000001, 0.11],
        [0.031381059609000006, 0.12], [0.028242953648100012, 0.13], [0.02541865828329001, 0.14],
        [0.02287679245496101, 0.15], [0.02058911320946491, 0.16],
    ],
    'OneCycleLR_cos': [
        [0.040000000000000036, 0.0040000000000000036], [0.2207248951078079, 0.022072489510780793],
        [0.6268100482990309, 0.0626810048299031], [0.9524650565931612, 0.09524650565931612],
        [0.9944154354509117, 0.09944154354509119], [0.9504846320134737, 0.09504846320134738],
        [0.8665264698111694, 0.08665264698111695], [0.750001, 0.0750001], [0.6112620219362893, 0.06112620219362893],
        [0.46263710266697505, 0.046263710266697504], [0.31733221849885124, 0.03173322184988512],
        [0.18825834605023697, 0.0188258346050237], [0.08688426531955129, 0.008688426531955128],
        [0.02221750825254118, 0.002221750825254118], [4e-06, 4e-07], [0.022217508252541235, 0.0022217508252541235],
    ],
    'OneCycleLR_cos_momentum': [
        [0.95, 0.95], [0.9311744900929366, 0.9311744900929366], [0.8888739533021842, 0.8888739533021842],
        [0.854951556604879, 0.854951556604879], [0.8505584586887436, 0.8505584586887436],
        [0.854951556604879, 0.854951556604879], [0.8633474064085087, 0.8633474064085087], [0.875, 0.875],
        [0.8888739533021842, 0.8888739533021842], [0.9037365046793212, 0.9037365046793212],
        [0.9182670512183198, 0.9182670512183198], [0.9311744900929366, 0.9311744900929366],
        [0.9413119387157997, 0.9413119387157997], [0.947778640289307, 0.947778640289307], [0.95, 0.95],
        [0.947778640289307, 0.947778640289307],
    ],
    'OneCycleLR_linear3': [
        [0.05, 0.05], [0.21363636363636362, 0.21363636363636362], [0.37727272727272726, 0.37727272727272726],
        [0.4590909090909091, 0.4590909090909091], [0.29545454545454547, 0.29545454545454547],
        [0.13181818181818178, 0.13181818181818178], [0.04708823529411765, 0.04708823529411765],
        [0.04126470588235294, 0.04126470588235294], [0.03544117647058824, 0.03544117647058824],
        [0.029617647058823533, 0.029617647058823533], [0.023794117647058823, 0.023794117647058823],
        [0.01797058823529412, 0.01797058823529412], [0.012147058823529414, 0.012147058823529414],
        [0.006323529411764707, 0.006323529411764707], [0.0005000000000000004, 0.0005000000000000004],
        [-0.005323529411764706, -0.005323529411764706],
    ],
    'OneCycleLR_linear3_momentum': [
        [0.95, 0.95], [0.9136363636363636, 0.9136363636363636], [0.8772727272727272, 0.8772727272727272],
        [0.859090909090909, 0.859090909090909], [0.8954545454545454, 0.8954545454545454],
        [0.9318181818181818, 0.9318181818181818], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95],
        [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95], [0.95, 0.95],
    ],
    'OneCycleLR_adam': [
        [0.008000000000000007, 0.008000000000000007], [0.04414497902156159, 0.04414497902156159],
        [0.1253620096598062, 0.1253620096598062], [0.19049301131863225, 0.19049301131863225],
        [0.19888308709018238, 0.19888308709018238], [0.19009692640269477, 0.19009692640269477],
        [0.1733052939622339, 0.1733052939622339], [0.1500002, 0.1500002],
        [0.12225240438725786, 0.12225240438725786], [0.09252742053339501, 0.09252742053339501],
        [0.06346644369977024, 0.06346644369977024], [0.0376516692100474, 0.0376516692100474],
        [0.017376853063910257, 0.017376853063910257], [0.004443501650508236, 0.004443501650508236], [8e-07, 8e-07],
        [0.004443501650508247, 0.004443501650508247],
    ],
    'OneCycleLR_adam_momentum': [
        [0.9, 0.9], [0.8811744900929367, 0.8811744900929367], [0.8388739533021843, 0.8388739533021843],
        [0.804951556604879, 0.804951556604879], [0.8005584586887436, 0.8005584586887436],
        [0.804951556604879, 0.804951556604879], [0.8133474064085088, 0.8133474064085088],
        [0.8250000000000001, 0.8250000000000001], [0.8388739533021843, 0.8388739533021843],
        [0.8537365046793213, 0.8537365046793213], [0.8682670512183198, 0.8682670512183198],
        [0.8811744900929367, 0.8811744900929367], [0.8913119387157997, 0.8913119387157997],
        [0.8977786402893071, 0.8977786402893071], [0.9, 0.9], [0.8977786402893071, 0.8977786402893071],
    ],
    'ReduceLROnPlateau': [
        [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.05, 0.005], [0.05, 0.005],
        [0.05, 0.005], [0.05, 0.005], [0.05, 0.005], [0.025, 0.0025], [0.025, 0.0025], [0.025, 0.0025],
        [0.025, 0.0025], [0.02, 0.00125], [0.02, 0.00125],
    ],
    'ReduceLROnPlateau_max_abs': [
        [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.010000000000000002, 0.001], [0.010000000000000002, 0.001],
        [0.0010000000000000002, 0.0001], [0.0010000000000000002, 0.0001], [0.00010000000000000003, 1e-05],
        [0.00010000000000000003, 1e-05], [1.0000000000000004e-05, 1.0000000000000002e-06],
        [1.0000000000000004e-05, 1.0000000000000002e-06], [1.0000000000000004e-06, 1.0000000000000002e-07],
        [1.0000000000000004e-06, 1.0000000000000002e-07], [1.0000000000000005e-07, 1.0000000000000004e-08],
        [1.0000000000000005e-07, 1.0000000000000004e-08], [1.0000000000000005e-08, 1.0000000000000004e-08],
    ],
    'CosineAnnealingWarmRestarts': [
        [0.1, 0.010000000000000002], [0.07525000000000001, 0.007750000000000001],
        [0.025750000000000012, 0.003250000000000001], [0.1, 0.010000000000000002],
        [0.07525000000000001, 0.007750000000000001], [0.025750000000000012, 0.003250000000000001],
        [0.1, 0.010000000000000002], [0.07525000000000001, 0.007750000000000001],
        [0.025750000000000012, 0.003250000000000001], [0.1, 0.010000000000000002],
        [0.07525000000000001, 0.007750000000000001], [0.025750000000000012, 0.003250000000000001],
        [0.1, 0.010000000000000002], [0.07525000000000001, 0.007750000000000001],
        [0.025750000000000012, 0.003250000000000001], [0.1, 0.010000000000000002],
    ],
    'CosineAnnealingWarmRestarts_mult': [
        [0.1, 0.01], [0.05, 0.005], [0.1, 0.01], [0.08535533905932738, 0.008535533905932738], [0.05, 0.005],
        [0.014644660940672627, 0.0014644660940672626], [0.1, 0.01], [0.09619397662556434, 0.009619397662556433],
        [0.08535533905932738, 0.008535533905932738], [0.0691341716182545, 0.00691341716182545], [0.05, 0.005],
        [0.030865828381745515, 0.0030865828381745515], [0.014644660940672627, 0.0014644660940672626],
        [0.0038060233744356634, 0.0003806023374435663], [0.1, 0.01], [0.09903926402016153, 0.009903926402016152],
    ],
    'CyclicLR_triangular': [
        [0.01, 0.01], [0.040000000000000015, 0.040000000000000015], [0.06999999999999999, 0.06999999999999999],
        [0.1, 0.1], [0.07000000000000003, 0.07000000000000003], [0.03999999999999998, 0.03999999999999998],
        [0.01, 0.01], [0.040000000000000056, 0.040000000000000056], [0.06999999999999995, 0.06999999999999995],
        [0.1, 0.1], [0.06999999999999995, 0.06999999999999995], [0.040000000000000056, 0.040000000000000056],
        [0.01, 0.01], [0.03999999999999998, 0.03999999999999998], [0.07000000000000003, 0.07000000000000003],
        [0.1, 0.1],
    ],
    'CyclicLR_triangular_momentum': [
        [0.9, 0.9], [0.8666666666666667, 0.8666666666666667], [0.8333333333333334, 0.8333333333333334], [0.8, 0.8],
        [0.8333333333333334, 0.8333333333333334], [0.8666666666666667, 0.8666666666666667], [0.9, 0.9],
        [0.8666666666666666, 0.8666666666666666], [0.8333333333333335, 0.8333333333333335], [0.8, 0.8],
        [0.8333333333333335, 0.8333333333333335], [0.8666666666666666, 0.8666666666666666], [0.9, 0.9],
        [0.8666666666666667, 0.8666666666666667], [0.8333333333333334, 0.8333333333333334], [0.8, 0.8],
    ],
    'CyclicLR_triangular2': [
        [0.01, 0.001], [0.055, 0.025499999999999995], [0.09999999999999999, 0.04999999999999999],
        [0.06999999999999999, 0.033666666666666664], [0.039999999999999994, 0.017333333333333333], [0.01, 0.001],
        [0.03250000000000002, 0.013250000000000012], [0.055, 0.025499999999999995],
        [0.039999999999999994, 0.017333333333333333], [0.025000000000000015, 0.009166666666666674], [0.01, 0.001],
        [0.021250000000000012, 0.0071250000000000055], [0.0325, 0.013249999999999998],
        [0.024999999999999998, 0.009166666666666667], [0.01750000000000001, 0.005083333333333337], [0.01, 0.001],
    ],
    'CyclicLR_triangular2_momentum': [
        [0.9, 0.9], [0.8500000000000001, 0.8500000000000001], [0.8, 0.8], [0.8333333333333334, 0.8333333333333334],
        [0.8666666666666667, 0.8666666666666667], [0.9, 0.9], [0.875, 0.875],
        [0.8500000000000001, 0.8500000000000001], [0.8666666666666667, 0.8666666666666667],
        [0.8833333333333333, 0.8833333333333333], [0.9, 0.9], [0.8875000000000001, 0.8875000000000001],
        [0.875, 0.875], [0.8833333333333334, 0.8833333333333334], [0.8916666666666667, 0.8916666666666667],
        [0.9, 0.9],
    ],
    'CyclicLR_exp_range_adam': [
        [0.001, 0.001], [0.003700000000000002, 0.003700000000000002], [0.00586, 0.00586],
        [0.007561000000000002, 0.007561000000000002], [0.004936600000000003, 0.004936600000000003],
        [0.002771469999999999, 0.002771469999999999], [0.001, 0.001], [0.0024348907000000027, 0.0024348907000000027],
        [0.003582803259999999, 0.003582803259999999], [0.004486784401000001, 0.004486784401000001],
        [0.003092070640599999, 0.003092070640599999], [0.001941431788270002, 0.001941431788270002], [0.001, 0.001],
        [0.0017625597484986996, 0.0017625597484986996], [0.0023726075472976613, 0.0023726075472976613],
        [0.0028530201888518417, 0.0028530201888518417],
    ],
    'CyclicLR_exp_range_adam_momentum': [
        [0.95, 0.95], [0.9199999999999999, 0.9199999999999999], [0.896, 0.896], [0.8771, 0.8771], [0.90626, 0.90626],
        [0.930317, 0.930317], [0.95, 0.95], [0.93405677, 0.93405677], [0.921302186, 0.921302186],
        [0.9112579511, 0.9112579511], [0.92675477066, 0.92675477066], [0.939539646797, 0.939539646797], [0.95, 0.95],
        [0.94152711390557, 0.94152711390557], [0.934748805030026, 0.934748805030026],
        [0.9294108867905351, 0.9294108867905351],
    ],
    'LinearLR': [
        [0.025, 0.0025], [0.03333333333333333, 0.003333333333333333], [0.041666666666666664, 0.004166666666666667],
        [0.049999999999999996, 0.005], [0.058333333333333334, 0.005833333333333334],
        [0.06666666666666667, 0.006666666666666666], [0.075, 0.0075], [0.075, 0.0075], [0.075, 0.0075],
        [0.075, 0.0075], [0.075, 0.0075], [0.075, 0.0075], [0.075, 0.0075], [0.075, 0.0075], [0.075, 0.0075],
        [0.075, 0.0075],
    ],
    'PolynomialLR': [
        [0.1, 0.01], [0.0765625, 0.00765625], [0.05625, 0.005624999999999999],
        [0.03906250000000001, 0.0039062499999999996], [0.02500000000000001, 0.0025],
        [0.014062500000000006, 0.00140625], [0.006250000000000002, 0.0006249999999999999],
        [0.0015625000000000005, 0.00015624999999999998], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0],
        [0.0, 0.0], [0.0, 0.0], [0.0, 0.0],
    ],
    'ConstantLR': [
        [0.05, 0.005], [0.05, 0.005], [0.05, 0.005], [0.05, 0.005], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01],
        [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01], [0.1, 0.01],
        [0.1, 0.01],
    ],
    'MultiplicativeLR': [
        [0.1, 0.01], [0.095, 0.0095], [0.09025, 0.009025], [0.0857375, 0.00857375],
        [0.08145062499999998, 0.0081450625], [0.07737809374999999, 0.007737809374999999],
        [0.07350918906249998, 0.007350918906249998], [0.06983372960937498, 0.006983372960937498],
        [0.06634204312890622, 0.006634204312890623], [0.0630249409724609, 0.006302494097246091],
        [0.05987369392383786, 0.005987369392383786], [0.05688000922764597, 0.005688000922764597],
        [0.05403600876626367, 0.005403600876626367], [0.05133420832795048, 0.005133420832795048],
        [0.04876749791155295, 0.0048767497911552955], [0.046329123015975304, 0.00463291230159753],
    ],
    'SequentialLR': [
        [0.010000000000000002, 0.001], [0.04, 0.003999999999999999], [0.07, 0.006999999999999998],
        [0.1, 0.009999999999999998], [0.1, 0.01], [0.09000000000000001, 0.009000000000000001],
        [0.08100000000000002, 0.008100000000000001], [0.07290000000000002, 0.007290000000000001],
        [0.06561000000000002, 0.006561000000000002], [0.1, 0.01], [0.08535533905932738, 0.008535533905932738],
        [0.05, 0.005], [0.014644660940672627, 0.0014644660940672626], [0.0, 0.0],
        [0.014644660940672622, 0.0014644660940672622], [0.05000000000000001, 0.005000000000000001],
    ],
    'ChainedScheduler': [
        [0.010000000000000002, 0.001], [0.04, 0.003999999999999999], [0.07, 0.006999999999999998],
        [0.1, 0.009999999999999998], [0.05, 0.004999999999999999], [0.05, 0.004999999999999999],
        [0.05, 0.004999999999999999], [0.05, 0.004999999999999999], [0.025, 0.0024999999999999996],
        [0.025, 0.0024999999999999996], [0.025, 0.0024999999999999996], [0.025, 0.0024999999999999996],
        [0.0125, 0.0012499999999999998], [0.0125, 0.0012499999999999998], [0.0125, 0.0012499999999999998],
        [0.0125, 0.0012499999999999998],
    ],
}


def _optimizer(name: str) -> optim.Optimizer:
    groups = [{"params": [tinyframe.zeros(2, requires_grad=True)]},
              {"params": [tinyframe.zeros(1, requires_grad=True)], "lr": 0.01}]
    if name.endswith("adam"):
        return optim.Adam(groups, lr=0.1)
    return optim.SGD(groups, lr=0.1, momentum=0.9)


def _momentum(optimizer: optim.Optimizer) -> list:
    if isinstance(optimizer, optim.Adam):
        return [group["betas"][0] for group in optimizer.param_groups]
    return [group["momentum"] for group in optimizer.param_groups]


def _step(optimizer: optim.Optimizer, scheduler: lr_scheduler.LRScheduler, i: int) -> None:
    optimizer.step()
    if isinstance(scheduler, lr_scheduler.ReduceLROnPlateau):
        scheduler.step(METRICS[i])
    else:
        scheduler.step()


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_scheduler_matches_pytorch_over_15_steps(name):
    optimizer = _optimizer(name)
    scheduler = SCHEDULERS[name](optimizer)
    lrs, momenta = [scheduler.get_last_lr()], [_momentum(optimizer)]
    for i in range(15):
        _step(optimizer, scheduler, i)
        lrs.append(scheduler.get_last_lr())
        momenta.append(_momentum(optimizer))
        assert [group["lr"] for group in optimizer.param_groups] == lrs[-1]
    assert lrs == [pytest.approx(row, rel=1e-12) for row in EXPECTED_LRS[name]]
    if name + "_momentum" in EXPECTED_LRS:
        assert momenta == [pytest.approx(row, rel=1e-12) for row in EXPECTED_LRS[name + "_momentum"]]


def test_scheduler_sets_initial_lr_and_base_lrs():
    optimizer = _optimizer("sgd")
    scheduler = lr_scheduler.StepLR(optimizer, step_size=2)
    assert [group["initial_lr"] for group in optimizer.param_groups] == [0.1, 0.01]
    assert scheduler.base_lrs == [0.1, 0.01]
    assert scheduler.last_epoch == 0 and scheduler.get_last_lr() == [0.1, 0.01]


@pytest.mark.parametrize("make, epoch, expected", [
    (lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.001), 4,
     [0.025750000000000012, 0.003250000000000001]),
    (lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=6, eta_min=0.001), 9, [0.05049999999999999, 0.0055]),
    (lambda o: lr_scheduler.MultiStepLR(o, milestones=[3, 7, 7, 12], gamma=0.3), 8,
     [0.0026999999999999997, 0.00026999999999999995]),
    (lambda o: lr_scheduler.StepLR(o, step_size=4, gamma=0.5), 9, [0.025, 0.0025]),
    (lambda o: lr_scheduler.ExponentialLR(o, gamma=0.8), 3, [0.051200000000000016, 0.005120000000000001]),
], ids=["cosine-4", "cosine-9", "multistep", "step", "exponential"])
def test_step_with_an_epoch_uses_the_closed_form_and_warns(make, epoch, expected):
    optimizer = _optimizer("sgd")
    scheduler = make(optimizer)
    optimizer.step()
    with pytest.warns(UserWarning, match="epoch parameter in `scheduler.step\\(\\)` was not necessary"):
        scheduler.step(epoch)
    assert scheduler.last_epoch == epoch
    assert scheduler.get_last_lr() == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_state_dict_round_trip_resumes_identically(name):
    optimizer = _optimizer(name)
    scheduler = SCHEDULERS[name](optimizer)
    for i in range(6):
        _step(optimizer, scheduler, i)
    saved_optimizer = copy.deepcopy(optimizer.state_dict())
    saved_scheduler = copy.deepcopy(scheduler.state_dict())
    assert "optimizer" not in saved_scheduler
    resumed_optimizer = _optimizer(name)
    resumed = SCHEDULERS[name](resumed_optimizer)       # create the scheduler first, then load both
    resumed_optimizer.load_state_dict(saved_optimizer)
    resumed.load_state_dict(saved_scheduler)
    assert resumed.get_last_lr() == scheduler.get_last_lr()
    for i in range(6, 15):
        _step(optimizer, scheduler, i)
        _step(resumed_optimizer, resumed, i)
        assert resumed.get_last_lr() == scheduler.get_last_lr()
        assert _momentum(resumed_optimizer) == _momentum(optimizer)


def test_state_dict_holds_pytorch_keys():
    scheduler = lr_scheduler.MultiStepLR(_optimizer("sgd"), milestones=[2, 4])
    assert sorted(scheduler.state_dict()) == ["_get_lr_called_within_step", "_is_initial", "_last_lr",
                                              "_step_count", "base_lrs", "gamma", "last_epoch", "milestones"]
    plateau = lr_scheduler.ReduceLROnPlateau(_optimizer("sgd"))
    assert sorted(plateau.state_dict()) == ["_last_lr", "best", "cooldown", "cooldown_counter", "default_min_lr",
                                            "eps", "factor", "last_epoch", "min_lrs", "mode", "mode_worse",
                                            "num_bad_epochs", "patience", "threshold", "threshold_mode"]


def test_lambda_lr_state_dict_saves_callable_objects_but_not_functions():
    class Warmup:
        def __init__(self) -> None:
            self.factor = 2.0

        def __call__(self, epoch: int) -> float:
            return self.factor * (epoch + 1)

    warmup = Warmup()
    scheduler = lr_scheduler.LambdaLR(_optimizer("sgd"), lr_lambda=[warmup, lambda e: 1.0])
    state = scheduler.state_dict()
    assert state["lr_lambdas"] == [{"factor": 2.0}, None]
    state["lr_lambdas"][0]["factor"] = 3.0
    scheduler.load_state_dict(state)
    assert warmup.factor == 3.0


def test_reduce_lr_on_plateau_accepts_a_tensor_metric():
    optimizer = _optimizer("sgd")
    scheduler = lr_scheduler.ReduceLROnPlateau(optimizer, patience=0, factor=0.5)
    scheduler.step(tinyframe.tensor(1.0))
    scheduler.step(tinyframe.tensor(2.0))
    assert scheduler.get_last_lr() == [0.05, 0.005]


def test_scheduler_step_before_optimizer_step_warns():
    optimizer = _optimizer("sgd")
    scheduler = lr_scheduler.StepLR(optimizer, step_size=2)
    with pytest.warns(UserWarning) as record:
        scheduler.step()
    assert str(record[0].message) == (  # PyTorch 2.13's text
        "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should "
        "call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
        "result in PyTorch skipping the first value of the learning rate schedule. See more details at "
        "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
    optimizer = _optimizer("sgd")
    scheduler = lr_scheduler.StepLR(optimizer, step_size=2)
    optimizer.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scheduler.step()


def test_get_lr_outside_step_warns():
    scheduler = lr_scheduler.StepLR(_optimizer("sgd"), step_size=2)
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        scheduler.get_lr()


def test_scheduler_errors_match_pytorch():
    optimizer = _optimizer("sgd")
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        lr_scheduler.StepLR([], step_size=1)
    with pytest.raises(KeyError, match="initial_lr"):
        lr_scheduler.StepLR(optimizer, step_size=1, last_epoch=3)
    with pytest.raises(ValueError, match="Expected 2 lr_lambdas, but got 1"):
        lr_scheduler.LambdaLR(optimizer, lr_lambda=[lambda e: 1.0])
    with pytest.raises(ValueError, match="Factor should be < 1.0."):
        lr_scheduler.ReduceLROnPlateau(optimizer, factor=1.0)
    with pytest.raises(ValueError, match="mode maximum is unknown!"):
        lr_scheduler.ReduceLROnPlateau(optimizer, mode="maximum")
    with pytest.raises(ValueError, match="You must define either total_steps OR"):
        lr_scheduler.OneCycleLR(optimizer, max_lr=0.1)
    with pytest.raises(ValueError, match="Expected float between 0 and 1 pct_start"):
        lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=10, pct_start=1)
    with pytest.raises(ValueError, match="max_lr must have the same length as optimizer.param_groups"):
        lr_scheduler.OneCycleLR(optimizer, max_lr=[0.1], total_steps=10)
    with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
        lr_scheduler.OneCycleLR(optim.Adagrad([tinyframe.zeros(1, requires_grad=True)]), max_lr=0.1, total_steps=5)


def test_one_cycle_lr_raises_past_its_total_steps():
    optimizer = _optimizer("sgd")
    scheduler = lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=2)
    optimizer.step()
    scheduler.step()
    scheduler.step()
    with pytest.raises(ValueError, match="Tried to step 3 times. The specified number of total steps is 2"):
        scheduler.step()


def test_cosine_annealing_warm_restarts_takes_fractional_epochs_as_pytorch():
    optimizer = optim.SGD([tinyframe.zeros(1, requires_grad=True)], lr=0.1)
    scheduler = lr_scheduler.CosineAnnealingWarmRestarts(optimizer, T_0=2, T_mult=3, eta_min=0.001)
    seen = []
    for epoch in [0.5, 1.25, 2.0, 3.7, 7.9, 8.0, 9.5, 26.0, None]:
        optimizer.step()
        scheduler.step(epoch)
        seen.append((scheduler.get_last_lr()[0], scheduler.T_i, scheduler.T_cur, scheduler.last_epoch))
    expected = [(0.0855017856687341, 2, 0.5, 0), (0.03155717009792806, 2, 1.25, 1), (0.1, 6, 0.0, 2),
                (0.08165135935696695, 6, 1.7000000000000002, 3), (0.0010678380296485952, 6, 5.9, 7),
                (0.1, 18, 0.0, 8), (0.09831332840130888, 18, 1.5, 9), (0.1, 54, 0.0, 26),
                (0.09991625383442779, 54, 1.0, 27)]
    assert seen == [pytest.approx(row, rel=1e-12) for row in expected]


def test_cyclic_lr_state_dict_keeps_a_callable_scale_fn_state():
    class Halving:
        def __init__(self) -> None:
            self.base = 0.5

        def __call__(self, cycle: float) -> float:
            return self.base ** (cycle - 1)

    scale = Halving()
    scheduler = lr_scheduler.CyclicLR(_optimizer("sgd"), 0.01, 0.1, step_size_up=2, scale_fn=scale)
    state = scheduler.state_dict()
    assert state["_scale_fn_custom"] == {"base": 0.5}
    scale.base = 0.9
    scheduler.load_state_dict(state)
    assert scale.base == 0.5 and "_scale_fn_custom" in state


def test_composite_schedulers_save_the_state_of_each_scheduler():
    optimizer = _optimizer("sgd")
    scheduler = SCHEDULERS["SequentialLR"](optimizer)
    state = scheduler.state_dict()
    assert sorted(state) == ["_last_lr", "_milestones", "_schedulers", "last_epoch"]
    assert [inner.get("start_factor", inner.get("gamma", inner.get("T_max"))) for inner in state["_schedulers"]] == [
        0.1, 0.9, 4]
    chained = SCHEDULERS["ChainedScheduler"](_optimizer("sgd"))
    assert sorted(chained.state_dict()) == ["_last_lr", "_schedulers"]


@pytest.mark.parametrize("make, message", [
    (lambda o: lr_scheduler.LinearLR(o, start_factor=0), "Starting multiplicative factor expected to be greater "
                                                         "than 0 and less or equal to 1."),
    (lambda o: lr_scheduler.LinearLR(o, end_factor=2), "Ending multiplicative factor expected to be between 0 and 1."),
    (lambda o: lr_scheduler.ConstantLR(o, factor=2), "Constant multiplicative factor expected to be between 0 and 1."),
    (lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=0), "Expected positive integer T_0, but got 0"),
    (lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0), "Expected integer T_mult >= 1, but got 0"),
    (lambda o: lr_scheduler.CyclicLR(o, 0.01, 0.1, mode="sine"), "mode is invalid and scale_fn is None"),
    (lambda o: lr_scheduler.CyclicLR(optim.Adagrad([tinyframe.zeros(1, requires_grad=True)]), 0.01, 0.1),
     "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"),
    (lambda o: lr_scheduler.SequentialLR(o, [lr_scheduler.StepLR(o, 2), lr_scheduler.StepLR(o, 3)], milestones=[]),
     "Sequential Schedulers expects number of schedulers provided to be one more than the number of milestone "
     "points, but got number of schedulers 2 and the number of milestones to be equal to 0"),
    (lambda o: lr_scheduler.ChainedScheduler([lr_scheduler.ReduceLROnPlateau(o)]),
     "ChainedScheduler does not support `ReduceLROnPlateau` scheduler"),
], ids=["linear-start", "linear-end", "constant", "warm-restarts-T_0", "warm-restarts-T_mult", "cyclic-mode",
        "cyclic-momentum", "sequential-milestones", "chained-plateau"])
def test_new_scheduler_errors_match_pytorch(make, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        make(_optimizer("sgd"))


def test_the_former_base_class_name_can_still_be_subclassed():
    class Halving(lr_scheduler._LRScheduler):
        def get_lr(self):
            return [group["lr"] * (0.5 if self.last_epoch else 1.0) for group in self.optimizer.param_groups]

    optimizer = _optimizer("sgd")
    scheduler = Halving(optimizer)
    optimizer.step()
    scheduler.step()
    assert scheduler.get_last_lr() == [0.05, 0.005] and isinstance(scheduler, lr_scheduler.LRScheduler)
