"""The layers of ``tinyframe.nn``, one concept a file."""
from .activation import (
    ELU,
    GELU,
    GLU,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)
from .attention import MultiheadAttention
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d
from .distance import CosineSimilarity, PairwiseDistance
from .dropout import Dropout
from .flatten import Flatten, Unflatten
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Bilinear, Identity, Linear, NonDynamicallyQuantizableLinear
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    CTCLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from .module import Module
from .normalization import GroupNorm, LayerNorm, RMSNorm
from .pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AvgPool1d,
    AvgPool2d,
    MaxPool1d,
    MaxPool2d,
    MaxUnpool1d,
    MaxUnpool2d,
)
from .resampling import Fold, PixelShuffle, PixelUnshuffle, Unfold, Upsample, UpsamplingBilinear2d, UpsamplingNearest2d
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .sparse import Embedding, EmbeddingBag
from .transformer import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)

__all__ = ["Module", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict", "Identity",
           "Linear"]
__all__ += ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d", "MaxPool1d", "MaxPool2d", "AvgPool1d",
            "AvgPool2d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
            "LayerNorm", "GroupNorm", "RMSNorm", "Embedding", "RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase",
            "RNNCell", "LSTMCell", "GRUCell", "Bilinear", "NonDynamicallyQuantizableLinear",
            "MultiheadAttention"]
__all__ += ["ReLU", "ReLU6", "LeakyReLU", "ELU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softplus", "Hardtanh",
            "LogSigmoid", "Softmax", "LogSoftmax", "Dropout", "Flatten", "Unflatten", "MSELoss", "L1Loss",
            "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss"]
__all__ += ["Mish", "Hardswish", "Hardsigmoid", "GLU", "Conv3d", "CosineSimilarity", "PairwiseDistance",
            "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "CTCLoss", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
            "MaxUnpool1d", "MaxUnpool2d", "Fold", "Unfold", "PixelShuffle", "PixelUnshuffle", "Upsample",
            "UpsamplingNearest2d", "UpsamplingBilinear2d", "EmbeddingBag", "Transformer", "TransformerEncoder",
            "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer"]
