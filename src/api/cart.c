/* Cartesian topologies: Dims_create, Cart_create/map/sub and the queries. */
#include "api/topo.h"

DMPI_ALIAS(Dims_create)
DMPI_ALIAS(Cart_create)
DMPI_ALIAS(Cart_map)
DMPI_ALIAS(Cart_sub)
DMPI_ALIAS(Cartdim_get)
DMPI_ALIAS(Cart_get)
DMPI_ALIAS(Cart_rank)
DMPI_ALIAS(Cart_coords)
DMPI_ALIAS(Cart_shift)

static int check_ndims(const char *fn, int ndims)
{
    if (ndims >= 0)
        return MPI_SUCCESS;
    return dmpi_err(MPI_ERR_DIMS, "%s: ndims is %d; it must not be negative", fn, ndims);
}

/* A grid of ndims positive extents that fits in c. */
static int check_grid(const char *fn, const dmpi_comm_t *c, int ndims, const int *dims)
{
    int err;
    if ((err = check_ndims(fn, ndims)) || (err = dmpi_topo_check_array(fn, dims, ndims, "dims")))
        return err;
    for (int i = 0; i < ndims; i++)
        if (dims[i] <= 0)
            return dmpi_err(MPI_ERR_DIMS, "%s: dims[%d] is %d; every dimension needs at least one process", fn, i,
                            dims[i]);
    long long n = 1;
    for (int i = 0; i < ndims; i++)
        if ((n *= dims[i]) > c->size)
            return dmpi_err(MPI_ERR_DIMS, "%s: the grid has more processes than the %d of the communicator", fn,
                            c->size);
    return MPI_SUCCESS;
}

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Dims_create";
    int err;
    if ((err = dmpi_check_init(fn)) || (err = check_ndims(fn, ndims)) ||
        (err = dmpi_topo_check_array(fn, dims, ndims, "dims")))
        return dmpi_api_error(NULL, fn, err);
    if (nnodes <= 0)
        return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_ARG, "%s: nnodes is %d; it must be positive", fn, nnodes));
    for (int i = 0; i < ndims; i++)
        if (dims[i] < 0)
            return dmpi_api_error(NULL, fn, dmpi_err(MPI_ERR_DIMS, "%s: dims[%d] is %d; it must not be negative",
                                                     fn, i, dims[i]));
    if ((err = dmpi_dims_create(nnodes, ndims, dims)))
        return dmpi_api_error(NULL, fn, err);
    return MPI_SUCCESS;
}

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                     MPI_Comm *comm_cart)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Cart_create";
    dmpi_comm_t *c = NULL, *n = NULL;
    int err = dmpi_topo_check_parent(fn, comm_old, comm_cart, &c);
    (void)reorder;                  /* keeping the order is always allowed */
    if (err == MPI_SUCCESS && !(err = check_grid(fn, c, ndims, dims)) &&
        !(err = dmpi_topo_check_array(fn, periods, ndims, "periods")))
        err = dmpi_cart_create(c, ndims, dims, periods, &n);
    return dmpi_topo_made(fn, c, err, n, comm_cart);
}

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Cart_map";
    dmpi_comm_t *c = NULL;
    int err;
    (void)periods;                  /* without reordering the placement does not depend on them */
    if ((err = dmpi_check_init(fn)) || (err = dmpi_check_comm(fn, comm, &c)) || (err = dmpi_check_intra(fn, c)) ||
        (err = check_grid(fn, c, ndims, dims)) || (err = dmpi_check_ptr(fn, newrank, "newrank")))
        return dmpi_api_error(c, fn, err);
    long long nodes = 1;
    for (int i = 0; i < ndims; i++)
        nodes *= dims[i];
    *newrank = dmpi_topo_map(c, nodes);
    return MPI_SUCCESS;
}

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Cart_sub";
    dmpi_comm_t *c = NULL, *n = NULL;
    const dmpi_topo_t *t;
    int err = dmpi_topo_check_kind(fn, comm, MPI_CART, &c, &t);
    if (err == MPI_SUCCESS && !(err = dmpi_topo_check_array(fn, remain_dims, t->cart.ndims, "remain_dims")) &&
        !(err = dmpi_check_ptr(fn, newcomm, "the new communicator pointer")))
        err = dmpi_cart_sub(c, remain_dims, &n);
    return dmpi_topo_made(fn, c, err, n, newcomm);
}

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Cartdim_get";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_CART, &c, &t)) || (err = dmpi_check_ptr(fn, ndims, "ndims")))
        return dmpi_api_error(c, fn, err);
    *ndims = t->cart.ndims;
    return MPI_SUCCESS;
}

/* maxdims below ndims returns the first maxdims entries. */
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Cart_get";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_CART, &c, &t)) ||
        (err = dmpi_topo_check_nonneg(fn, maxdims, "maxdims")))
        return dmpi_api_error(c, fn, err);
    int n = maxdims < t->cart.ndims ? maxdims : t->cart.ndims;
    if ((err = dmpi_topo_check_array(fn, dims, n, "dims")) ||
        (err = dmpi_topo_check_array(fn, periods, n, "periods")) ||
        (err = dmpi_topo_check_array(fn, coords, n, "coords")))
        return dmpi_api_error(c, fn, err);
    dmpi_cart_get(t, c->rank, maxdims, dims, periods, coords);
    return MPI_SUCCESS;
}

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Cart_rank";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_CART, &c, &t)) ||
        (err = dmpi_topo_check_array(fn, coords, t->cart.ndims, "coords")) || (err = dmpi_check_ptr(fn, rank, "rank")))
        return dmpi_api_error(c, fn, err);
    /* Only periodic dimensions wrap around. */
    for (int i = 0; i < t->cart.ndims; i++)
        if (!t->cart.periods[i] && (coords[i] < 0 || coords[i] >= t->cart.dims[i]))
            return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_ARG,
                                                  "%s: coords[%d] is %d, outside 0..%d of the non-periodic "
                                                  "dimension %d",
                                                  fn, i, coords[i], t->cart.dims[i] - 1, i));
    *rank = dmpi_cart_rank(t, coords);
    return MPI_SUCCESS;
}

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Cart_coords";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_CART, &c, &t)))
        return dmpi_api_error(c, fn, err);
    if (rank < 0 || rank >= c->size)
        err = dmpi_err(MPI_ERR_RANK, "%s: rank %d is not in the grid of %d processes", fn, rank, c->size);
    else if (maxdims < t->cart.ndims)
        err = dmpi_err(MPI_ERR_ARG, "%s: maxdims is %d, less than the %d dimensions", fn, maxdims, t->cart.ndims);
    else
        err = dmpi_topo_check_array(fn, coords, t->cart.ndims, "coords");
    if (err)
        return dmpi_api_error(c, fn, err);
    dmpi_cart_get(t, rank, maxdims, NULL, NULL, coords);
    return MPI_SUCCESS;
}

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    DMPI_API_ENTER;
    const char *fn = "MPI_Cart_shift";
    dmpi_comm_t *c = NULL;
    const dmpi_topo_t *t;
    int err;
    if ((err = dmpi_topo_check_kind(fn, comm, MPI_CART, &c, &t)) ||
        (err = dmpi_check_ptr(fn, rank_source, "rank_source")) || (err = dmpi_check_ptr(fn, rank_dest, "rank_dest")))
        return dmpi_api_error(c, fn, err);
    if (direction < 0 || direction >= t->cart.ndims)
        return dmpi_api_error(c, fn, dmpi_err(MPI_ERR_ARG, "%s: direction %d is not one of the %d dimensions (0..%d)",
                                              fn, direction, t->cart.ndims, t->cart.ndims - 1));
    dmpi_cart_shift(t, c->rank, direction, disp, rank_source, rank_dest);
    return MPI_SUCCESS;
}
