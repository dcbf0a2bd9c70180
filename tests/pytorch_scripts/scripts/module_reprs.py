import torch
import torch.nn as nn

layers = [
    nn.Linear(4, 3), nn.Linear(4, 3, bias=False), nn.Bilinear(2, 3, 4), nn.Identity(),
    nn.Conv1d(2, 4, 3), nn.Conv2d(3, 8, kernel_size=(3, 5), stride=2, padding=(1, 2), bias=False),
    nn.Conv2d(4, 4, 3, padding="same", groups=2, dilation=2, padding_mode="reflect"),
    nn.ConvTranspose2d(8, 4, 4, stride=2, padding=1, output_padding=1),
    nn.MaxPool2d(2), nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True), nn.AvgPool2d(2, stride=1),
    nn.AdaptiveAvgPool2d((1, 1)), nn.AdaptiveMaxPool1d(4), nn.MaxPool1d(2),
    nn.BatchNorm1d(5), nn.BatchNorm2d(5, momentum=None, affine=False), nn.LayerNorm(6), nn.LayerNorm([2, 3], elementwise_affine=False),
    nn.GroupNorm(2, 4), nn.InstanceNorm2d(3), nn.Dropout(), nn.Dropout(p=0.3, inplace=True), nn.Dropout2d(0.1),
    nn.ReLU(), nn.ReLU(inplace=True), nn.LeakyReLU(), nn.LeakyReLU(0.2, True), nn.ELU(), nn.GELU(), nn.GELU(approximate="tanh"),
    nn.SiLU(), nn.Sigmoid(), nn.Tanh(), nn.Softmax(dim=1), nn.LogSoftmax(dim=-1), nn.Softplus(), nn.Hardtanh(-2, 2),
    nn.PReLU(), nn.ReLU6(), nn.Mish(), nn.Hardswish(), nn.Softmin(dim=0), nn.Threshold(0.1, 20),
    nn.Embedding(10, 3), nn.Embedding(10, 3, padding_idx=0), nn.EmbeddingBag(10, 3, mode="max"),
    nn.RNN(4, 8), nn.LSTM(4, 8, num_layers=2, batch_first=True, bidirectional=True), nn.GRU(4, 8, dropout=0.1, num_layers=2),
    nn.LSTMCell(4, 8), nn.GRUCell(4, 8), nn.RNNCell(4, 8, nonlinearity="relu"),
    nn.Flatten(), nn.Flatten(0, -1), nn.Unflatten(1, (2, 5)), nn.Upsample(scale_factor=2, mode="nearest"),
    nn.Upsample(size=(4, 4), mode="bilinear", align_corners=False), nn.PixelShuffle(2), nn.ZeroPad2d(1), nn.ConstantPad1d(2, 3.5),
    nn.ReflectionPad2d((1, 1, 2, 0)), nn.MSELoss(), nn.L1Loss(reduction="sum"), nn.CrossEntropyLoss(label_smoothing=0.1),
    nn.CrossEntropyLoss(ignore_index=-1), nn.NLLLoss(), nn.BCELoss(), nn.BCEWithLogitsLoss(pos_weight=torch.ones(2)),
    nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(), nn.KLDivLoss(reduction="batchmean"), nn.CosineSimilarity(), nn.PairwiseDistance(),
    nn.MultiheadAttention(8, 2), nn.MultiheadAttention(8, 2, batch_first=True, dropout=0.1),
    nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, batch_first=True),
    nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, norm_first=True),
    nn.ModuleDict({"a": nn.Linear(1, 1), "b": nn.ReLU()}), nn.ParameterList([nn.Parameter(torch.zeros(2))]),
    nn.ParameterDict({"w": nn.Parameter(torch.zeros(2, 3))}), nn.Sequential(), nn.ModuleList(),
    nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1))),
]
for layer in layers:
    print(layer)
from collections import OrderedDict
model = nn.Sequential(OrderedDict([("conv1", nn.Conv2d(1, 20, 5)), ("relu1", nn.ReLU()), ("conv2", nn.Conv2d(20, 64, 5))]))
print(model, model.conv1, model[0] is model.conv1, len(model), model[-1])
print(model[0:2])
print(nn.Parameter(torch.ones(2)), nn.Parameter(torch.ones(2), requires_grad=False))
print(repr(nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16)))
