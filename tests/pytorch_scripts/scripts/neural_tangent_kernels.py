"""pytorch.org's "Neural Tangent Kernels" tutorial (torch.func): a small CNN made functional with
functional_call over detached parameters, the empirical NTK by Jacobian contraction (vmap(jacrev) then
einsum 'Naf,Mbf->NMab', with compute='full' / 'trace' / 'diagonal'), the NTK-vector-product version with
vjp and jvp under vmap, and both methods agreeing."""
import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, jvp, vjp, vmap

torch.manual_seed(0)
device = "cpu"


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, (3, 3))
        self.conv2 = nn.Conv2d(8, 8, (3, 3))
        self.conv3 = nn.Conv2d(8, 8, (3, 3))
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = self.conv3(x)
        x = x.flatten(1)
        x = self.fc(x)
        return x


x_train = torch.randn(6, 3, 7, 7, device=device)
x_test = torch.randn(5, 3, 7, 7, device=device)
net = CNN().to(device)
params = {k: v.detach() for k, v in net.named_parameters()}


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute="full"):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    einsum_expr = None
    if compute == "full":
        einsum_expr = "Naf,Mbf->NMab"
    elif compute == "trace":
        einsum_expr = "Naf,Maf->NM"
    elif compute == "diagonal":
        einsum_expr = "Naf,Maf->NMa"
    else:
        assert False
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result


result = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result.shape)
result_trace = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "trace")
print(result_trace.shape)
result_diag = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "diagonal")
print(result_diag.shape)
print(torch.allclose(result_trace, result.diagonal(dim1=-2, dim2=-1).sum(-1), atol=1e-4, rtol=1e-4))
print(torch.allclose(result_diag, result.diagonal(dim1=-2, dim2=-1), atol=1e-4, rtol=1e-4))
print(f"{result[0, 0].trace().item():.4f}")


def empirical_ntk_ntk_vps(func, params, x1, x2, compute="full"):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == "full":
        return result
    if compute == "trace":
        return torch.einsum("NMKK->NM", result)
    if compute == "diagonal":
        return torch.einsum("NMKK->NMK", result)


result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test)
result_from_jacobian_contraction = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test)
print(result_from_ntk_vps.shape)
assert torch.allclose(result_from_ntk_vps, result_from_jacobian_contraction, atol=1e-5)
print(torch.allclose(result_from_ntk_vps, result_from_jacobian_contraction, atol=1e-4, rtol=1e-4))
sym = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_train, "trace")
print(torch.allclose(sym, sym.T, atol=1e-4), bool((torch.linalg.eigvalsh(sym.double()) > -1e-3).all()))
