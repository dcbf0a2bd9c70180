"""Graph convolutional networks on sparse adjacency matrices as tkipf/pygcn and the GAT reference
code write them: a COO adjacency from an edge list with torch.sparse_coo_tensor (the legacy
torch.sparse.FloatTensor constructor too), symmetric normalisation D^-1/2 (A + I) D^-1/2 via
torch.sparse.sum and a diagonal sparse matrix, torch.spmm / torch.sparse.mm in a GraphConvolution
layer with reset_parameters, masked node classification with nll_loss, and coalesce / indices /
values / to_dense round trips."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parameter import Parameter

torch.manual_seed(0)
n_nodes, n_feat, n_class = 30, 8, 3
labels = torch.arange(n_nodes) % n_class
features = F.one_hot(labels, n_class).float().repeat(1, 3)[:, :n_feat] * 0.5 + torch.rand(n_nodes, n_feat)
# edges mostly within a class, a few across
src = torch.randint(0, n_nodes, (80,))
dst = torch.where(torch.rand(80) < 0.8, (src + n_class * torch.randint(1, 4, (80,))) % n_nodes, torch.randint(0, n_nodes, (80,)))
edges = torch.stack([src, dst])
edges = torch.cat([edges, edges.flip(0)], dim=1)  # undirected
print("edges", edges.shape, "self loops", int((edges[0] == edges[1]).sum()))


def sparse_mx_from_edges(edges, n):
    values = torch.ones(edges.size(1))
    adj = torch.sparse_coo_tensor(edges, values, (n, n))
    return adj.coalesce()


adj = sparse_mx_from_edges(edges, n_nodes)
print("coalesced", adj.is_coalesced(), "nnz", adj._nnz(), "max multiplicity", adj.values().max().item())
adj = torch.sparse_coo_tensor(adj.indices(), torch.ones_like(adj.values()), adj.shape)  # binarise duplicates
eye = torch.sparse_coo_tensor(torch.arange(n_nodes).repeat(2, 1), torch.ones(n_nodes), (n_nodes, n_nodes))
adj_hat = (adj + eye).coalesce()
deg = torch.sparse.sum(adj_hat, dim=1).to_dense()
d_inv_sqrt = deg.pow(-0.5)
d_inv_sqrt[torch.isinf(d_inv_sqrt)] = 0.0
row, col = adj_hat.indices()
norm_values = d_inv_sqrt[row] * adj_hat.values() * d_inv_sqrt[col]
adj_norm = torch.sparse_coo_tensor(adj_hat.indices(), norm_values, adj_hat.shape).coalesce()
dense_norm = torch.diag(d_inv_sqrt) @ adj_hat.to_dense() @ torch.diag(d_inv_sqrt)
print("degree", deg[:6].tolist(), "normalised == dense", torch.allclose(adj_norm.to_dense(), dense_norm, atol=1e-6))
print("symmetric", torch.allclose(adj_norm.to_dense(), adj_norm.to_dense().t()), "layout", adj_norm.layout, adj_norm.is_sparse)


class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super(GraphConvolution, self).__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.FloatTensor(in_features, out_features))
        if bias:
            self.bias = Parameter(torch.FloatTensor(out_features))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1. / math.sqrt(self.weight.size(1))
        self.weight.data.uniform_(-stdv, stdv)
        if self.bias is not None:
            self.bias.data.uniform_(-stdv, stdv)

    def forward(self, input, adj):
        support = torch.mm(input, self.weight)
        output = torch.spmm(adj, support)
        if self.bias is not None:
            return output + self.bias
        return output

    def __repr__(self):
        return self.__class__.__name__ + " (" + str(self.in_features) + " -> " + str(self.out_features) + ")"


class GCN(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout):
        super(GCN, self).__init__()
        self.gc1 = GraphConvolution(nfeat, nhid)
        self.gc2 = GraphConvolution(nhid, nclass)
        self.dropout = dropout

    def forward(self, x, adj):
        x = F.relu(self.gc1(x, adj))
        x = F.dropout(x, self.dropout, training=self.training)
        x = self.gc2(x, adj)
        return F.log_softmax(x, dim=1)


def accuracy(output, labels):
    preds = output.max(1)[1].type_as(labels)
    correct = preds.eq(labels).double()
    correct = correct.sum()
    return correct / len(labels)


model = GCN(nfeat=n_feat, nhid=16, nclass=n_class, dropout=0.5)
print(model)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
idx_train, idx_val, idx_test = torch.LongTensor(range(12)), torch.LongTensor(range(12, 20)), torch.LongTensor(range(20, 30))
for epoch in range(40):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj_norm)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    acc_train = accuracy(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()
    if epoch % 10 == 0:
        model.eval()
        output = model(features, adj_norm)
        loss_val = F.nll_loss(output[idx_val], labels[idx_val])
        print("Epoch: {:04d}".format(epoch + 1), "loss_train: {:.4f}".format(loss_train.item()),
              "acc_train: {:.4f}".format(acc_train.item()), "loss_val: {:.4f}".format(loss_val.item()))
model.eval()
output = model(features, adj_norm)
print("Test set results:", "loss= {:.4f}".format(F.nll_loss(output[idx_test], labels[idx_test]).item()),
      "accuracy= {:.4f}".format(accuracy(output[idx_test], labels[idx_test]).item()), accuracy(output, labels).dtype)
dense_out = model(features, adj_norm.to_dense())
print("sparse == dense adjacency", torch.allclose(output, dense_out, atol=1e-5))

# legacy constructor and sparse ops
i = torch.LongTensor([[0, 1, 1], [2, 0, 2]])
v = torch.FloatTensor([3, 4, 5])
legacy = torch.sparse.FloatTensor(i, v, torch.Size([2, 3]))
print(legacy.to_dense().tolist(), legacy.dtype, legacy.shape)
print("sparse.mm", torch.sparse.mm(legacy, torch.ones(3, 2)).tolist())
print("transpose", legacy.t().coalesce().indices().tolist(), "sum", torch.sparse.sum(legacy).item())
print("softmax", torch.sparse.softmax(legacy, dim=1).to_dense().round(decimals=4).tolist())
print("mul dense", (legacy * 2).coalesce().values().tolist(), "to_sparse", torch.eye(2).to_sparse().indices().tolist())
grad_w = torch.ones(3, 2, requires_grad=True)
torch.sparse.mm(legacy, grad_w).sum().backward()
print("grad through sparse.mm", grad_w.grad.tolist())
