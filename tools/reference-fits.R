# Reference fits of every fitting function, for checking that a refactor
# leaves fits identical() for the same seeds.
#
#   Rscript tools/reference-fits.R LIB OUT.rds          fit with the package in LIB
#   Rscript tools/reference-fits.R --compare A.rds B.rds [--renamed]  report what differs
#
# Small fits of every method (the conventions cases) with their predictions,
# and larger fits that take the processor-specific paths: the AVX sweeps
# (k >= 4), the two-thread pipelines (from 65536 points) and the chunklet,
# mean-field, Gibbs, ICM and sampled-chunklet E-steps.
args <- commandArgs(TRUE)

# --compare A B --renamed: fits of B with the names of the must / cannot and
# inner_iter rename mapped back to the earlier may / may_not / inner_sweeps,
# so that fits from before the rename compare by value.
earlier_names <- function(f) {
  if (!is.list(f)) return(f)
  back <- function(v) {
    if (identical(names(v), c("must", "cannot"))) names(v) <- c("may", "may_not")
    v
  }
  if (!is.null(f$xi)) f$xi <- back(f$xi)
  if (!is.null(f$xi_max)) f$xi_max <- back(f$xi_max)
  if (is.list(f$xi_schedule)) for (el in c("start", "max")) f$xi_schedule[[el]] <- back(f$xi_schedule[[el]])
  if (!is.null(f$agreement)) {
    names(f$agreement) <- sub("^cannot_", "may_not_", sub("^must_", "may_", names(f$agreement)))
  }
  if (is.list(f$settings) && "inner_iter" %in% names(f$settings)) {
    names(f$settings)[names(f$settings) == "inner_iter"] <- "inner_sweeps"
  }
  f
}

if (identical(args[1], "--compare")) {
  drop_timing <- function(f) {
    if (is.list(f)) f$pass_seconds <- NULL
    f
  }
  a <- lapply(readRDS(args[2]), drop_timing)
  b <- lapply(readRDS(args[3]), drop_timing)
  if ("--renamed" %in% args) b <- lapply(b, earlier_names)
  same <- vapply(names(a), function(nm) identical(a[[nm]], b[[nm]]), logical(1))
  missing <- setdiff(names(a), names(b))
  cat(sprintf("%d of %d reference fits identical\n", sum(same), length(a)))
  if (any(!same)) cat("differ:", names(a)[!same], "\n")
  if (length(missing)) cat("missing:", missing, "\n")
  quit(status = if (all(same)) 0 else 1)
}

library(sideclust, lib.loc = args[1])
out <- args[2]

strip <- function(fit) {
  if (is.list(fit)) {
    fit$call <- NULL
    fit$data <- NULL
    fit$timing <- NULL
    fit$elapsed <- NULL
    fit$pass_seconds <- NULL
  }
  fit
}
with_seed <- function(seed, expr) {
  set.seed(seed)
  tryCatch(expr, error = function(e) paste("error:", conditionMessage(e)))
}

fits <- list()
add <- function(name, seed, expr) {
  fit <- with_seed(seed, expr)
  fits[[name]] <<- strip(fit)
  pred <- tryCatch(suppressWarnings(predict(fit)), error = function(e) NULL)
  if (!is.null(pred)) fits[[paste0(name, "/predict")]] <<- pred
  message(name)
}

# the conventions cases: every fitting function once
x <- as.matrix(iris[c(1:15, 51:65, 101:115), 1:4])
y <- iris$Species[c(1:15, 51:65, 101:115)]
set.seed(1)
side <- sample_constraints(y, rate = 0.02)
labels <- sample_labels(y, 0.4)
counts <- matrix(rpois(30 * 8, rep(c(1, 6, 3), each = 80)), 30, 8) + 1
cube <- array(rnorm(12 * 5 * 4), c(12, 5, 4))

add("aib", 1, aib(counts, k = 3))
add("cec", 1, cec(x, 4, restarts = 2))
add("cec_ib", 1, cec_ib(x, labels, 4, restarts = 2))
for (type in c("full", "diagonal", "spherical")) {
  add(paste0("cec_ib_", type), 2, cec_ib(x, labels, 4, type = type, restarts = 2))
}
add("cross_associations", 1, cross_associations(counts > 3))
add("cop_kmeans", 1, cop_kmeans(x, side, 3, restarts = 2))
add("cvqe", 1, cvqe(x, side, 3, restarts = 2))
add("discriminative_clustering", 1, discriminative_clustering(x, labels, 3, restarts = 2))
add("disparate_kmeans", 1, disparate_kmeans(x, c(2, 2), restarts = 2))
add("dp_means", 1, dp_means(x, k = 3))
add("ib", 1, ib(counts, 3, beta = 5, restarts = 2))
add("ib_kmeans", 1, ib_kmeans(x, 3, beta = 5, restarts = 2))
add("itcc", 1, itcc(counts, 3, 2, restarts = 2))
add("kpartite", 1, kpartite_clustering(list(counts, counts[, 1:4]), k = c(a = 3, b = 2, c = 2),
                                       types = rbind(c(1, 2), c(1, 3)), restarts = 2))
add("kernel_rdp_means", 1, kernel_rdp_means(x, side, lambda = 1.5))
add("lcvqe", 1, lcvqe(x, side, 3, restarts = 2))
add("mpck_means", 1, mpck_means(x, side, 3, restarts = 2))
add("pck_means", 1, pck_means(x, side, 3, restarts = 2))
add("multiway", 1, multiway_clustering(cube, c(3, 2, 2), restarts = 2))
add("parallel_ib", 1, parallel_ib(counts, c(2, 2), restarts = 2))
add("rdp_means", 1, rdp_means(x, side, k = 3))
add("sib", 1, sib(counts, 3, restarts = 2))
add("symmetric_ib", 1, symmetric_ib(counts, 3, 2, restarts = 2))
add("tvclust", 1, tvclust(x, side, iter = 40, chains = 1, threads = 1))
add("tvclust_2chains", 1, tvclust(x, side, iter = 40, chains = 2, threads = 2))
add("tvclust_vb", 1, tvclust(x, side, method = "variational", restarts = 2))
for (inference in c("mean_field", "chunklet", "icm", "gibbs", "sampled_chunklet", "exact")) {
  add(paste0("constrained_mixture_", inference), 1,
      constrained_mixture(x, side, 3, inference = inference))
}

# larger fits: the AVX sweeps, the two-thread pipelines and huge-page tables
set.seed(80)
n <- 70000
yb <- rep(1:6, length.out = n)
xb <- matrix(stats::rnorm(n * 3), n, 3) + 2 * yb
sideb <- sample_constraints(yb, "nelson_cohen", n_constraints = 20000, noise = 0.05)
for (k in c(3L, 6L)) for (threads in 1:2) {
  tag <- paste0("_n70000_k", k, "_t", threads)
  add(paste0("lcvqe", tag), k, lcvqe(xb, sideb, k, restarts = 1, max_iter = 5, threads = threads))
  add(paste0("mpck_means", tag), k,
      mpck_means(xb, sideb, k, restarts = 1, max_iter = 5, threads = threads))
  add(paste0("mpck_means_full", tag), k,
      mpck_means(xb, sideb, k, metric = "full", restarts = 1, max_iter = 5, threads = threads))
  add(paste0("pck_means", tag), k,
      pck_means(xb, sideb, k, restarts = 1, max_iter = 5, threads = threads))
}
for (k in c(3L, 6L)) {
  add(paste0("cop_kmeans_n70000_k", k), k,
      cop_kmeans(xb, sideb, k, restarts = 1, max_iter = 5, infeasible = "nearest"))
  add(paste0("cvqe_n70000_k", k), k, cvqe(xb, sideb, k, restarts = 1, max_iter = 5))
  add(paste0("rdp_means_n70000_k", k), k, rdp_means(xb, sideb, k = k, max_iter = 5))
}
add("constrained_mixture_chunklet_n70000", 1,
    constrained_mixture(xb, sideb, 6, inference = "chunklet", max_iter = 3))
add("constrained_mixture_mean_field_n70000", 1,
    constrained_mixture(xb, sideb, 6, inference = "mean_field", max_iter = 3))
add("constrained_mixture_sampled_n20000", 1,
    constrained_mixture(xb[1:20000, ], sample_constraints(yb[1:20000], "nelson_cohen",
                                                          n_constraints = 4000, noise = 0.1),
                        6, inference = "sampled_chunklet", max_iter = 2, threads = 2))
words <- Matrix::rsparsematrix(3000, 400, density = 0.02,
                               rand.x = function(m) rpois(m, 3) + 1)
add("sib_sparse", 3, sib(words, 5, restarts = 1))
xk <- x[rep(seq_len(nrow(x)), 4), ] + rnorm(4 * length(x), sd = 0.05)
add("kernel_rdp_means_180", 4, kernel_rdp_means(xk, NULL, lambda = 1.5))

saveRDS(fits, out)
cat(length(fits), "reference fits written to", out, "\n")
