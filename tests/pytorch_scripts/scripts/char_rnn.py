import string
import torch
import torch.nn as nn

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)


def letterToIndex(letter):
    return all_letters.find(letter)


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


print(n_letters, lineToTensor("Jones").size(), lineToTensor("J")[0, 0, :12])


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        output = self.h2o(hidden[0])
        output = self.softmax(output)
        return output


rnn = RNN(n_letters, 16, 4)
print(rnn)
with torch.no_grad():
    for i, p in enumerate(rnn.parameters()):
        p.copy_(torch.linspace(-0.3, 0.3, p.numel()).reshape(p.shape).roll(3 * i))
print([(n, tuple(p.shape)) for n, p in rnn.named_parameters()])
output = rnn(lineToTensor("Albert"))
print(output)
top_n, top_i = output.topk(1)
print(top_n, top_i, top_i[0].item())
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(rnn.parameters(), lr=0.05)
names = [("Albert", 0), ("Satoshi", 1), ("Jones", 2), ("Nguyen", 3)]
for epoch in range(5):
    total = 0.0
    for name, label in names:
        output = rnn(lineToTensor(name))
        loss = criterion(output, torch.tensor([label], dtype=torch.long))
        loss.backward()
        nn.utils.clip_grad_norm_(rnn.parameters(), 3)
        optimizer.step()
        optimizer.zero_grad()
        total += loss.item()
    print(epoch, round(total / len(names), 4))


class ManualRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.i2o(combined)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


m = ManualRNN(n_letters, 8, 3)
with torch.no_grad():
    for p in m.parameters():
        p.copy_(torch.linspace(-0.2, 0.2, p.numel()).reshape(p.shape))
hidden = m.initHidden()
line = lineToTensor("Ann")
for i in range(line.size()[0]):
    output, hidden = m(line[i], hidden)
print(output, hidden.shape, output.grad_fn.name())
lstm = nn.LSTM(5, 4, num_layers=2, batch_first=True, dropout=0.0)
gru = nn.GRU(5, 4, bidirectional=True)
print(lstm, gru)
for mod in (lstm, gru):
    with torch.no_grad():
        for p in mod.parameters():
            p.copy_(torch.linspace(-0.4, 0.4, p.numel()).reshape(p.shape))
x = torch.linspace(-1, 1, 2 * 3 * 5).reshape(2, 3, 5)
out, (h, c) = lstm(x)
print(out.shape, h.shape, c.shape, out[0, -1], out.grad_fn.name())
out, h = gru(x)
print(out.shape, h.shape, out[-1, 0])
