import math
import torch
from torch import nn, Tensor
from torch.nn import TransformerEncoder, TransformerEncoderLayer


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, dropout: float = 0.1, max_len: int = 5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)

    def forward(self, x: Tensor) -> Tensor:
        x = x + self.pe[:x.size(0)]
        return self.dropout(x)


class TransformerModel(nn.Module):
    def __init__(self, ntoken: int, d_model: int, nhead: int, d_hid: int, nlayers: int, dropout: float = 0.5):
        super().__init__()
        self.model_type = 'Transformer'
        self.pos_encoder = PositionalEncoding(d_model, dropout)
        encoder_layers = TransformerEncoderLayer(d_model, nhead, d_hid, dropout)
        self.transformer_encoder = TransformerEncoder(encoder_layers, nlayers, enable_nested_tensor=False)
        self.embedding = nn.Embedding(ntoken, d_model)
        self.d_model = d_model
        self.linear = nn.Linear(d_model, ntoken)
        self.init_weights()

    def init_weights(self) -> None:
        initrange = 0.1
        self.embedding.weight.data.uniform_(-initrange, initrange)
        self.linear.bias.data.zero_()
        self.linear.weight.data.uniform_(-initrange, initrange)

    def forward(self, src: Tensor, src_mask: Tensor = None) -> Tensor:
        src = self.embedding(src) * math.sqrt(self.d_model)
        src = self.pos_encoder(src)
        if src_mask is None:
            src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
        output = self.transformer_encoder(src, src_mask)
        output = self.linear(output)
        return output


ntokens, emsize, d_hid, nlayers, nhead, dropout = 20, 16, 32, 2, 2, 0.2
model = TransformerModel(ntokens, emsize, nhead, d_hid, nlayers, dropout)
print(model)
print(sum(p.numel() for p in model.parameters()))
print([k for k in model.state_dict().keys()][:12])
print(model.pos_encoder.pe.shape, model.pos_encoder.pe[3, 0, :6])
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.2, 0.2, p.numel()).reshape(p.shape).roll(5 * i))
print(nn.Transformer.generate_square_subsequent_mask(4))
data = (torch.arange(35 * 4) * 7 % ntokens).reshape(35, 4)


def get_batch(source, i, bptt=7):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].reshape(-1)
    return data, target


criterion = nn.CrossEntropyLoss()
lr = 0.5
optimizer = torch.optim.SGD(model.parameters(), lr=lr)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1.0, gamma=0.95)
model.eval()
for epoch in range(2):
    total_loss = 0.
    for batch, i in enumerate(range(0, data.size(0) - 1, 7)):
        x, targets = get_batch(data, i)
        output = model(x)
        output_flat = output.view(-1, ntokens)
        loss = criterion(output_flat, targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        total_loss += loss.item()
    print(epoch, round(total_loss / (batch + 1), 4), scheduler.get_last_lr(), round(math.exp(total_loss / (batch + 1)), 3))
    scheduler.step()
with torch.no_grad():
    out = model(data[:5])
    print(out.shape, out[0, 0, :5], out.argmax(-1)[:, 0])
model.train()
print(model.training, model.transformer_encoder.layers[0].training)
