"""pytorch/examples time_sequence_prediction: generate_sine_wave.py's data saved with torch.save and
loaded back, a two-layer LSTMCell model in float64 unrolled over time and into the future, trained with
LBFGS and a closure."""
import io
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

# generate_sine_wave.py
np.random.seed(2)
T = 20
L = 30
N = 6
x = np.empty((N, L), 'int64')
x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype('float64')
f = io.BytesIO()
torch.save(data, f)


class Sequence(nn.Module):
    def __init__(self):
        super(Sequence, self).__init__()
        self.lstm1 = nn.LSTMCell(1, 12)
        self.lstm2 = nn.LSTMCell(12, 12)
        self.linear = nn.Linear(12, 1)
        self.dummy_param = nn.Parameter(torch.empty(0))

    def forward(self, input, future=0):
        outputs = []
        device = self.dummy_param.device
        h_t = torch.zeros(input.size(0), 12, dtype=torch.double).to(device)
        c_t = torch.zeros(input.size(0), 12, dtype=torch.double).to(device)
        h_t2 = torch.zeros(input.size(0), 12, dtype=torch.double).to(device)
        c_t2 = torch.zeros(input.size(0), 12, dtype=torch.double).to(device)

        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        outputs = torch.cat(outputs, dim=1)
        return outputs


if __name__ == '__main__':
    device = torch.device('cpu')
    np.random.seed(0)
    torch.manual_seed(0)
    f.seek(0)
    try:
        torch.load(f)
    except Exception as e:
        print(type(e).__name__)
    f.seek(0)
    data = torch.from_numpy(torch.load(f, weights_only=False)).to(device)
    print(data.dtype, data.shape, data[0, :4])
    input = data[3:, :-1]
    target = data[3:, 1:]
    test_input = data[:3, :-1]
    test_target = data[:3, 1:]
    seq = Sequence().to(device).double()
    print(seq.dummy_param.dtype, seq.linear.weight.dtype, seq.dummy_param.shape)
    criterion = nn.MSELoss().to(device)
    optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=4)
    for i in range(3):
        print('STEP: ', i)

        def closure():
            optimizer.zero_grad()
            out = seq(input)
            loss = criterion(out, target)
            print('loss:', round(loss.item(), 6))
            loss.backward()
            return loss
        optimizer.step(closure)
        with torch.no_grad():
            future = 10
            pred = seq(test_input, future=future)
            loss = criterion(pred[:, :-future], test_target)
            print('test loss:', round(loss.item(), 6))
            y = pred.cpu().detach().numpy()
        print(y.shape, y.dtype, np.round(y[0, -3:], 4))
    state = optimizer.state_dict()['state'][0]
    print(state['func_evals'], state['n_iter'], len(state['old_dirs']), state['d'].shape, round(state['t'], 6))
