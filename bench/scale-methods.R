# The point methods and peers timed by bench/scale-one-machine.R and
# bench/memory-copies.R, the data they run on, and the resident-memory reader
# both use. Sourced from the repository root; `p_dim` may be set before.
source(file.path("bench", "utils.R"))  # random_pairs()

if (!exists("p_dim")) p_dim <- 5L
k_true <- 10L
iters <- 6L

# Each method: the largest n it is run at (slower methods stop earlier) and a
# call with a given iteration budget; data are made by make_data() below.
methods <- list(
  kmeans = list(max_n = 1e7, run = function(d, it) {
    suppressWarnings(stats::kmeans(d$x, d$start, iter.max = it, algorithm = "Lloyd"))
  }, iterations = function(f) f$iter),
  rdp_means = list(max_n = 1e7, run = function(d, it) {
    sideclust::rdp_means(d$x, d$side, lambda = d$lambda, xi = 1, xi_max = 1, max_iter = it)
  }),
  dp_means = list(max_n = 1e7, run = function(d, it) {
    sideclust::dp_means(d$x, lambda = d$lambda, max_iter = it)
  }),
  # the same at lambda = 12 p, where the fits find the ten blobs at every n:
  # at lambda = 8 p they open more clusters as n grows (16 at 1e5, 32 at 1e7),
  # and an iteration costs O(n k), so those rows' exponent also measures k
  rdp_means_lambda12p = list(max_n = 1e7, run = function(d, it) {
    sideclust::rdp_means(d$x, d$side, lambda = 1.5 * d$lambda, xi = 1, xi_max = 1, max_iter = it)
  }),
  dp_means_lambda12p = list(max_n = 1e7, run = function(d, it) {
    sideclust::dp_means(d$x, lambda = 1.5 * d$lambda, max_iter = it)
  }),
  tvclust_gibbs = list(max_n = 1e7, run = function(d, it) {
    # one kept draw whatever `it`, so the point estimate costs the same
    sideclust::tvclust(d$x, d$side, iter = it, burn_in = it - 1L, chains = 1L, threads = 1L,
                       split_merge = 0L)
  }, iterations = function(f) NA),
  cec = list(max_n = 1e7, run = function(d, it) {
    sideclust::cec(d$x, k_true, restarts = 1L, max_iter = it)
  }),
  CEC_cec = list(max_n = 1e7, peer = "CEC", run = function(d, it) {
    CEC::cec(d$x, centers = k_true, nstart = 1, iter.max = it)
  }, iterations = function(f) f$iterations),
  cec_ib = list(max_n = 1e7, run = function(d, it) {
    sideclust::cec_ib(d$x, d$labels, k_true, restarts = 1L, max_iter = it)
  }),
  # the package's EM without constraints: the reference of the E-steps' rows
  cmix_plain = list(max_n = 1e7, run = function(d, it) {
    sideclust::constrained_mixture(d$x, NULL, k_true, start = d$start_labels, max_iter = it,
                                   tol = 0)
  }),
  cmix_mean_field = list(max_n = 1e7, run = function(d, it) {
    sideclust::constrained_mixture(d$x, d$side, k_true, start = d$start_labels, max_iter = it,
                                   tol = 0)
  }),
  cmix_chunklet = list(max_n = 1e7, run = function(d, it) {
    sideclust::constrained_mixture(d$x, d$side, k_true, inference = "chunklet",
                                   start = d$start_labels, max_iter = it, tol = 0)
  }),
  cmix_gibbs = list(max_n = 1e5, run = function(d, it) {
    sideclust::constrained_mixture(d$x, d$side, k_true, inference = "gibbs",
                                   start = d$start_labels, max_iter = it, tol = 0)
  }),
  cmix_icm = list(max_n = 1e7, run = function(d, it) {
    sideclust::constrained_mixture(d$x, d$side, k_true, inference = "icm",
                                   start = d$start_labels, max_iter = it, tol = 0)
  }),
  Rmixmod = list(max_n = 1e6, peer = "Rmixmod", run = function(d, it) {
    strategy <- Rmixmod::mixmodStrategy(algo = "EM", initMethod = "label", labels = d$start_labels,
                                        nbIterationInAlgo = it, epsilonInAlgo = 1e-300)
    Rmixmod::mixmodCluster(as.data.frame(d$x), k_true, strategy = strategy,
                           models = Rmixmod::mixmodGaussianModel(listModels = "Gaussian_pk_Lk_Ck"))
  }, iterations = function(f) NA),
  mclust_meVVV = list(max_n = 1e7, peer = "mclust", run = function(d, it) {
    z <- mclust::unmap(d$start_labels)
    mclust::meVVV(d$x, z, control = mclust::emControl(itmax = it, tol = c(0, 0)))
  }, iterations = function(f) NA),
  cvqe = list(max_n = 1e7, run = function(d, it) {
    sideclust::cvqe(d$x, d$side, k_true, restarts = 1L, max_iter = it)
  }),
  pck_means = list(max_n = 1e7, run = function(d, it) {
    sideclust::pck_means(d$x, d$side, k_true, restarts = 1L, max_iter = it)
  }),
  mpck_means = list(max_n = 1e7, run = function(d, it) {
    sideclust::mpck_means(d$x, d$side, k_true, restarts = 1L, max_iter = it)
  }),
  lcvqe = list(max_n = 1e7, run = function(d, it) {
    sideclust::lcvqe(d$x, d$side, k_true, restarts = 1L, max_iter = it)
  }),
  cop_kmeans = list(max_n = 1e7, run = function(d, it) {
    sideclust::cop_kmeans(d$x, d$side, k_true, restarts = 1L, max_iter = it)
  }),
  tvclust_vb = list(max_n = 1e6, run = function(d, it) {
    sideclust::tvclust(d$x, d$side, method = "variational", max_iter = it, tol = 0)
  }),
  cmix_sampled_chunklet = list(max_n = 1e6, run = function(d, it) {
    sideclust::constrained_mixture(d$x, d$side, k_true, inference = "sampled_chunklet",
                                   start = d$start_labels, max_iter = it, tol = 0)
  }),
  sib = list(max_n = 1e7, sparse = TRUE, run = function(d, it) {
    sideclust::sib(d$counts, k_true, restarts = 1L, max_iter = it)
  }),
  # kernel RDP-means on the moons with 1e4 pairs (moons_data() below), as in
  # bench/kernel-scale.R: lambda on each kernel's scale, spectral start;
  # set_up holds the features or the neighbour graph and the spectral start
  kernel_rdp_nystrom = list(max_n = 1e6, data = function(n) moons_data(n), run = function(d, it) {
    sideclust::kernel_rdp_means(d$x, d$side, lambda = 0.1 * nrow(d$x), sigma = 0.5,
                                approximation = "nystrom", max_iter = it)
  }),
  kernel_rdp_knn = list(max_n = 1e6, data = function(n) moons_data(n), run = function(d, it) {
    sideclust::kernel_rdp_means(d$x, d$side, lambda = 20, sigma = 0.5, approximation = "knn",
                                max_iter = it)
  }),
  # the same with a vocabulary that does not grow with n (1e4 words), so that
  # its k x m tables stay the same size
  sib_1e4_words = list(max_n = 1e7, sparse = TRUE, words = function(n) 1e4,
                       run = function(d, it) {
    sideclust::sib(d$counts, k_true, restarts = 1L, max_iter = it)
  })
)

make_data <- function(n, sparse, words = NULL) {
  set.seed(1)
  if (sparse) {
    # n documents over n / 10 words (or words(n)), 10 non-zero counts per row
    nnz <- 10 * n
    m <- as.integer(if (is.null(words)) max(n %/% 10, 100L) else words(n))
    counts <- Matrix::sparseMatrix(i = rep.int(seq_len(n), 10L),
                                   j = sample.int(m, nnz, TRUE),
                                   x = stats::rpois(nnz, 2) + 1,
                                   dims = c(n, m))
    return(list(counts = counts))
  }
  centres <- matrix(stats::rnorm(k_true * p_dim, sd = 4), k_true, p_dim)
  y <- sample.int(k_true, n, TRUE)
  x <- centres[y, ] + matrix(stats::rnorm(n * p_dim), n, p_dim)
  side <- sideclust::sample_constraints(y, rate = 1 / n)  # about n pairs
  labels <- ifelse(stats::runif(n) < 0.1, y, NA)
  start_labels <- sample.int(k_true, n, TRUE)
  list(x = x, y = y, side = side, labels = labels, start_labels = start_labels,
       # Lloyd from 10 points of 3 clusters keeps moving for several iterations
       start = x[which(y <= 3L)[1:10], ], lambda = 8 * p_dim)
}

# simulate_patterns()'s moons with 1e4 random pairs (random_pairs(),
# bench/utils.R).
moons_data <- function(n, pairs = 1e4) {
  set.seed(1)
  d <- sideclust::simulate_patterns(n, "moons")
  d$side <- random_pairs(d$label, pairs)
  d
}

status_mb <- function(field) {
  l <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", l)) / 1024
}
