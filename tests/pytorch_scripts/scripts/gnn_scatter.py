"""Message passing written with scatter ops, as PyG-free GNN code does it: edge_index (2, E) tensors,
degree by bincount and scatter_add_, GCN normalisation deg^-1/2 with masked_fill of inf, messages
aggregated by index_add_, scatter_reduce ('sum', 'mean', 'amax', 'amin' with include_self=False), a
segment softmax for GAT (scatter_reduce amax, exp, index_add_), global mean pooling over a batch vector,
a dense adjacency built with index_put_(accumulate=True), and training on a node classification task."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
num_nodes = 10
edge_index = torch.tensor([[0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 2, 5, 0],
                           [1, 0, 2, 1, 4, 3, 6, 5, 8, 7, 0, 7, 9, 4]])
x = torch.randn(num_nodes, 4)
y = torch.tensor([0, 0, 1, 1, 0, 1, 1, 0, 1, 0])


def add_self_loops(edge_index, num_nodes):
    loop = torch.arange(num_nodes, dtype=edge_index.dtype).unsqueeze(0).repeat(2, 1)
    return torch.cat([edge_index, loop], dim=1)


def degree(index, num_nodes, dtype=torch.float):
    out = torch.zeros((num_nodes,), dtype=dtype)
    one = torch.ones((index.size(0),), dtype=out.dtype)
    return out.scatter_add_(0, index, one)


ei = add_self_loops(edge_index, num_nodes)
row, col = ei
deg = degree(col, num_nodes)
print(deg, torch.bincount(col, minlength=num_nodes))
deg_inv_sqrt = deg.pow(-0.5)
deg_inv_sqrt.masked_fill_(deg_inv_sqrt == float('inf'), 0)
norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]
print(norm[:5])


class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def forward(self, x, edge_index):
        edge_index = add_self_loops(edge_index, x.size(0))
        x = self.lin(x)
        row, col = edge_index
        deg = degree(col, x.size(0), dtype=x.dtype)
        deg_inv_sqrt = deg.pow(-0.5)
        norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]
        msg = norm.view(-1, 1) * x[row]
        out = torch.zeros_like(x).index_add_(0, col, msg)
        return out + self.bias


class GATConv(nn.Module):
    def __init__(self, in_channels, out_channels, heads=2):
        super().__init__()
        self.heads, self.out_channels = heads, out_channels
        self.lin = nn.Linear(in_channels, heads * out_channels, bias=False)
        self.att_src = nn.Parameter(torch.randn(1, heads, out_channels) * 0.1)
        self.att_dst = nn.Parameter(torch.randn(1, heads, out_channels) * 0.1)

    def forward(self, x, edge_index):
        edge_index = add_self_loops(edge_index, x.size(0))
        src, dst = edge_index
        h = self.lin(x).view(-1, self.heads, self.out_channels)
        alpha = (h * self.att_src).sum(-1)[src] + (h * self.att_dst).sum(-1)[dst]
        alpha = F.leaky_relu(alpha, 0.2)
        amax = torch.full((x.size(0), self.heads), float("-inf")).scatter_reduce(0, dst.unsqueeze(1).expand(-1, self.heads), alpha, reduce="amax", include_self=True)
        alpha = (alpha - amax[dst]).exp()
        denom = torch.zeros(x.size(0), self.heads).index_add_(0, dst, alpha)
        alpha = alpha / denom[dst]
        out = torch.zeros_like(h).index_add_(0, dst, h[src] * alpha.unsqueeze(-1))
        return out.mean(1), alpha


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GCNConv(4, 8)
        self.conv2 = GATConv(8, 2)

    def forward(self, x, edge_index):
        x = F.relu(self.conv1(x, edge_index))
        x = F.dropout(x, p=0.2, training=self.training)
        x, alpha = self.conv2(x, edge_index)
        return F.log_softmax(x, dim=1), alpha


model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
train_mask = torch.zeros(num_nodes, dtype=torch.bool)
train_mask[:7] = True
model.train()
for epoch in range(20):
    optimizer.zero_grad()
    out, alpha = model(x, edge_index)
    loss = F.nll_loss(out[train_mask], y[train_mask])
    loss.backward()
    optimizer.step()
    if epoch % 5 == 0:
        print(epoch, round(loss.item(), 4))
model.eval()
pred, alpha = model(x, edge_index)
pred = pred.argmax(dim=1)
correct = (pred[~train_mask] == y[~train_mask]).sum()
print(int(correct) / int((~train_mask).sum()), alpha.shape, alpha[:3])

src = torch.tensor([1.0, 5.0, 2.0, 8.0, 3.0, 4.0])
index = torch.tensor([0, 1, 0, 1, 2, 0])
for reduce in ["sum", "prod", "mean", "amax", "amin"]:
    print(reduce, torch.zeros(4).scatter_reduce(0, index, src, reduce=reduce, include_self=False),
          torch.ones(4).scatter_reduce(0, index, src, reduce=reduce))
print(torch.zeros(3, 2).scatter_(0, torch.tensor([[0, 1], [2, 0]]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]), reduce="add"))
batch = torch.tensor([0, 0, 0, 1, 1, 1, 1, 2, 2, 2])
pooled = torch.zeros(3, 4).index_add_(0, batch, x) / torch.bincount(batch).unsqueeze(1)
print(pooled, torch.zeros(3, 4).index_reduce_(0, batch, x, "amax", include_self=False)[0])
w = torch.ones(ei.size(1))
# The original builds torch.sparse_coo_tensor(ei, w, ...) and multiplies with torch.sparse.mm;
# tinyframe has no sparse tensors (by design: dense NumPy/CuPy arrays only), so the adjacency is dense here.
adj = torch.zeros(num_nodes, num_nodes).index_put_((ei[0], ei[1]), w, accumulate=True)
print(adj.is_sparse, int(adj.count_nonzero()), torch.mm(adj, x)[:2], adj.sum(0))
src_g = torch.tensor([2.0, 3.0], requires_grad=True)
out = torch.zeros(2).scatter_reduce(0, torch.tensor([0, 0]), src_g, reduce="amax", include_self=False)
out.sum().backward()
print(out, src_g.grad)
