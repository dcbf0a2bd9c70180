"""``nn.utils.rnn``: PyTorch's path to the packed-sequence tools, defined in ``nn.packed_sequence``."""
from ..packed_sequence import *  # noqa: F401,F403
from ..packed_sequence import __all__  # noqa: F401
