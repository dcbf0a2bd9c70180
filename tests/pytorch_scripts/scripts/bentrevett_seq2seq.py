# bentrevett/pytorch-seq2seq, trimmed: tutorial 4 (bidirectional GRU encoder over
# pack_padded_sequence(enforce_sorted=False) with cpu lengths, additive attention masked with
# masked_fill(mask == 0, -1e10), teacher forcing with python random) and tutorial 5 (convolutional
# seq2seq: F.glu, scale torch.sqrt(torch.FloatTensor([0.5])), causal padding with
# torch.zeros(...).fill_(pad_idx), attention over conved + embedded), init_weights with
# nn.init.normal_/constant_ by parameter name, count_parameters, greedy translation.
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(1234)
torch.manual_seed(1234)
SRC_PAD_IDX, TRG_PAD_IDX, SOS, EOS = 1, 1, 2, 3


class Encoder(nn.Module):
    def __init__(self, input_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, emb_dim)
        self.rnn = nn.GRU(emb_dim, enc_hid_dim, bidirectional=True)
        self.fc = nn.Linear(enc_hid_dim * 2, dec_hid_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src, src_len):
        embedded = self.dropout(self.embedding(src))
        packed_embedded = nn.utils.rnn.pack_padded_sequence(embedded, src_len.to('cpu'), enforce_sorted=False)
        packed_outputs, hidden = self.rnn(packed_embedded)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(packed_outputs)
        hidden = torch.tanh(self.fc(torch.cat((hidden[-2, :, :], hidden[-1, :, :]), dim=1)))
        return outputs, hidden


class Attention(nn.Module):
    def __init__(self, enc_hid_dim, dec_hid_dim):
        super().__init__()
        self.attn = nn.Linear((enc_hid_dim * 2) + dec_hid_dim, dec_hid_dim)
        self.v = nn.Linear(dec_hid_dim, 1, bias=False)

    def forward(self, hidden, encoder_outputs, mask):
        batch_size = encoder_outputs.shape[1]
        src_len = encoder_outputs.shape[0]
        hidden = hidden.unsqueeze(1).repeat(1, src_len, 1)
        encoder_outputs = encoder_outputs.permute(1, 0, 2)
        energy = torch.tanh(self.attn(torch.cat((hidden, encoder_outputs), dim=2)))
        attention = self.v(energy).squeeze(2)
        attention = attention.masked_fill(mask == 0, -1e10)
        return F.softmax(attention, dim=1)


class Decoder(nn.Module):
    def __init__(self, output_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout, attention):
        super().__init__()
        self.output_dim = output_dim
        self.attention = attention
        self.embedding = nn.Embedding(output_dim, emb_dim)
        self.rnn = nn.GRU((enc_hid_dim * 2) + emb_dim, dec_hid_dim)
        self.fc_out = nn.Linear((enc_hid_dim * 2) + dec_hid_dim + emb_dim, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, input, hidden, encoder_outputs, mask):
        input = input.unsqueeze(0)
        embedded = self.dropout(self.embedding(input))
        a = self.attention(hidden, encoder_outputs, mask)
        a = a.unsqueeze(1)
        encoder_outputs = encoder_outputs.permute(1, 0, 2)
        weighted = torch.bmm(a, encoder_outputs)
        weighted = weighted.permute(1, 0, 2)
        rnn_input = torch.cat((embedded, weighted), dim=2)
        output, hidden = self.rnn(rnn_input, hidden.unsqueeze(0))
        assert (output == hidden).all()
        embedded = embedded.squeeze(0)
        output = output.squeeze(0)
        weighted = weighted.squeeze(0)
        prediction = self.fc_out(torch.cat((output, weighted, embedded), dim=1))
        return prediction, hidden.squeeze(0), a.squeeze(1)


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, src_pad_idx, device):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.src_pad_idx = src_pad_idx
        self.device = device

    def create_mask(self, src):
        return (src != self.src_pad_idx).permute(1, 0)

    def forward(self, src, src_len, trg, teacher_forcing_ratio=0.5):
        batch_size = src.shape[1]
        trg_len = trg.shape[0]
        trg_vocab_size = self.decoder.output_dim
        outputs = torch.zeros(trg_len, batch_size, trg_vocab_size).to(self.device)
        encoder_outputs, hidden = self.encoder(src, src_len)
        input = trg[0, :]
        mask = self.create_mask(src)
        for t in range(1, trg_len):
            output, hidden, _ = self.decoder(input, hidden, encoder_outputs, mask)
            outputs[t] = output
            teacher_force = random.random() < teacher_forcing_ratio
            top1 = output.argmax(1)
            input = trg[t] if teacher_force else top1
        return outputs


class ConvEncoder(nn.Module):
    def __init__(self, input_dim, emb_dim, hid_dim, n_layers, kernel_size, dropout, device, max_length=20):
        super().__init__()
        assert kernel_size % 2 == 1, "Kernel size must be odd!"
        self.device = device
        self.scale = torch.sqrt(torch.FloatTensor([0.5])).to(device)
        self.tok_embedding = nn.Embedding(input_dim, emb_dim)
        self.pos_embedding = nn.Embedding(max_length, emb_dim)
        self.emb2hid = nn.Linear(emb_dim, hid_dim)
        self.hid2emb = nn.Linear(hid_dim, emb_dim)
        self.convs = nn.ModuleList([nn.Conv1d(in_channels=hid_dim, out_channels=2 * hid_dim, kernel_size=kernel_size,
                                              padding=(kernel_size - 1) // 2) for _ in range(n_layers)])
        self.dropout = nn.Dropout(dropout)

    def forward(self, src):
        batch_size = src.shape[0]
        src_len = src.shape[1]
        pos = torch.arange(0, src_len).unsqueeze(0).repeat(batch_size, 1).to(self.device)
        embedded = self.dropout(self.tok_embedding(src) + self.pos_embedding(pos))
        conv_input = self.emb2hid(embedded).permute(0, 2, 1)
        for i, conv in enumerate(self.convs):
            conved = conv(self.dropout(conv_input))
            conved = F.glu(conved, dim=1)
            conved = (conved + conv_input) * self.scale
            conv_input = conved
        conved = self.hid2emb(conved.permute(0, 2, 1))
        combined = (conved + embedded) * self.scale
        return conved, combined


class ConvDecoder(nn.Module):
    def __init__(self, output_dim, emb_dim, hid_dim, n_layers, kernel_size, dropout, trg_pad_idx, device, max_length=20):
        super().__init__()
        self.kernel_size = kernel_size
        self.trg_pad_idx = trg_pad_idx
        self.device = device
        self.scale = torch.sqrt(torch.FloatTensor([0.5])).to(device)
        self.tok_embedding = nn.Embedding(output_dim, emb_dim)
        self.pos_embedding = nn.Embedding(max_length, emb_dim)
        self.emb2hid = nn.Linear(emb_dim, hid_dim)
        self.hid2emb = nn.Linear(hid_dim, emb_dim)
        self.attn_hid2emb = nn.Linear(hid_dim, emb_dim)
        self.attn_emb2hid = nn.Linear(emb_dim, hid_dim)
        self.fc_out = nn.Linear(emb_dim, output_dim)
        self.convs = nn.ModuleList([nn.Conv1d(in_channels=hid_dim, out_channels=2 * hid_dim, kernel_size=kernel_size)
                                    for _ in range(n_layers)])
        self.dropout = nn.Dropout(dropout)

    def calculate_attention(self, embedded, conved, encoder_conved, encoder_combined):
        conved_emb = self.attn_hid2emb(conved.permute(0, 2, 1))
        combined = (conved_emb + embedded) * self.scale
        energy = torch.matmul(combined, encoder_conved.permute(0, 2, 1))
        attention = F.softmax(energy, dim=2)
        attended_encoding = torch.matmul(attention, encoder_combined)
        attended_encoding = self.attn_emb2hid(attended_encoding)
        attended_combined = (conved + attended_encoding.permute(0, 2, 1)) * self.scale
        return attention, attended_combined

    def forward(self, trg, encoder_conved, encoder_combined):
        batch_size = trg.shape[0]
        trg_len = trg.shape[1]
        pos = torch.arange(0, trg_len).unsqueeze(0).repeat(batch_size, 1).to(self.device)
        embedded = self.dropout(self.tok_embedding(trg) + self.pos_embedding(pos))
        conv_input = self.emb2hid(embedded).permute(0, 2, 1)
        batch_size = conv_input.shape[0]
        hid_dim = conv_input.shape[1]
        for i, conv in enumerate(self.convs):
            conv_input = self.dropout(conv_input)
            padding = torch.zeros(batch_size, hid_dim, self.kernel_size - 1).fill_(self.trg_pad_idx).to(self.device)
            padded_conv_input = torch.cat((padding, conv_input), dim=2)
            conved = conv(padded_conv_input)
            conved = F.glu(conved, dim=1)
            attention, conved = self.calculate_attention(embedded, conved, encoder_conved, encoder_combined)
            conved = (conved + conv_input) * self.scale
            conv_input = conved
        conved = self.hid2emb(conved.permute(0, 2, 1))
        output = self.fc_out(self.dropout(conved))
        return output, attention


def init_weights(m):
    for name, param in m.named_parameters():
        if 'weight' in name:
            nn.init.normal_(param.data, mean=0, std=0.01)
        else:
            nn.init.constant_(param.data, 0)


def formula(m, k):
    with torch.no_grad():
        for i, (name, p) in enumerate(m.named_parameters()):
            if 'weight' in name:
                p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * k + i).view_as(p) * 0.4)


def count_parameters(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


device = torch.device('cpu')
V = 10
src = torch.tensor([[2, 2, 2], [5, 6, 7], [8, 4, 3], [9, 3, 1], [3, 1, 1]])  # [src len, batch]
src_len = torch.tensor([5, 4, 3])
trg = torch.tensor([[2, 2, 2], [9, 7, 6], [8, 4, 5], [5, 3, 3], [3, 1, 1]])
attn = Attention(6, 6)
model = Seq2Seq(Encoder(V, 4, 6, 6, 0.0), Decoder(V, 4, 6, 6, 0.0, attn), SRC_PAD_IDX, device).to(device)
model.apply(init_weights)
print('init std ok', 0.005 < model.encoder.embedding.weight.std().item() < 0.02, 'bias zero', model.encoder.fc.bias.abs().sum().item())
formula(model, 0.61)
print(f'The model has {count_parameters(model):,} trainable parameters')
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.CrossEntropyLoss(ignore_index=TRG_PAD_IDX)
for epoch in range(3):
    model.train()
    optimizer.zero_grad()
    output = model(src, src_len, trg)
    output_dim = output.shape[-1]
    output = output[1:].view(-1, output_dim)
    loss = criterion(output, trg[1:].view(-1))
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1)
    optimizer.step()
    print(f'Epoch: {epoch + 1:02} | Train Loss: {loss.item():.4f} | Train PPL: {torch.exp(loss).item():7.4f}')
model.eval()
with torch.no_grad():
    encoder_outputs, hidden = model.encoder(src[:, 1:2], src_len[1:2])
    mask = model.create_mask(src[:4, 1:2])
    trg_indexes, attentions = [SOS], torch.zeros(5, 1, 4)
    for i in range(5):
        trg_tensor = torch.LongTensor([trg_indexes[-1]]).to(device)
        output, hidden, attention = model.decoder(trg_tensor, hidden, encoder_outputs, mask)
        attentions[i] = attention
        pred_token = output.argmax(1).item()
        trg_indexes.append(pred_token)
        if pred_token == EOS:
            break
print('translation', trg_indexes, 'attention', [round(v, 4) for v in attentions[0, 0].tolist()])
print('encoder outputs', tuple(encoder_outputs.shape))

enc = ConvEncoder(V, 6, 8, 2, 3, 0.0, device)
dec = ConvDecoder(V, 6, 8, 2, 3, 0.0, TRG_PAD_IDX, device)
formula(enc, 0.37)
formula(dec, 0.29)
params = list(enc.parameters()) + list(dec.parameters())
opt = torch.optim.Adam(params, lr=5e-3)
S, T = src.T.contiguous(), trg.T.contiguous()
for epoch in range(3):
    encoder_conved, encoder_combined = enc(S)
    output, attention = dec(T[:, :-1], encoder_conved, encoder_combined)
    loss = F.cross_entropy(output.contiguous().view(-1, V), T[:, 1:].contiguous().view(-1), ignore_index=TRG_PAD_IDX)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(params, 0.1)
    opt.step()
    print('convs2s epoch', epoch, round(loss.item(), 5), tuple(attention.shape))
print('attention row', [round(v, 4) for v in attention[0, -1].tolist()], 'scale', enc.scale.tolist())
