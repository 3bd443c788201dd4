#' sideclust: clustering with side information
#'
#' Cluster data while respecting partial and possibly noisy knowledge about the
#' clusters: must-link / cannot-link pairs (optionally with confidences, see
#' [constraints()]) or partial labels (see [as_constraints()]).
#'
#' Main entry points:
#' * [dp_means()] and [rdp_means()]: DP-means and relational DP-means.
#' * [constraints()], [as_constraints()], [chunklets()], [check_constraints()],
#'   [sample_constraints()], [sample_labels()]: side information.
#' * [tvclust()]: the TVClust Gibbs sampler; [constrained_mixture()]:
#'   Gaussian mixtures under pairwise constraints; [cec()], [cec_ib()]:
#'   cross-entropy clustering with partial labels; [cvqe()]: constrained
#'   k-means with penalties.
#' * [ib()], [aib()], [sib()], [ib_kmeans()]: information bottleneck;
#'   [parallel_ib()], [symmetric_ib()]: multivariate information bottleneck;
#'   [itcc()] and [cross_associations()]: co-clustering of count and binary
#'   matrices; [multiway_clustering()]: matrices and tensors;
#'   [kpartite_clustering()]: several related data sets;
#'   [discriminative_clustering()]: clusters informative about auxiliary
#'   classes; [disparate_kmeans()]: two different clusterings.
#' * [f_measure()], [ari()], [nmi()], [compare_partitions()]: metrics.
#' * [tune_side()]: parameters chosen from held-out side information.
#'
#' @section Restarts, chains and grids on many cores:
#' Restarts (of [cec_ib()], [cec()], [rdp_means()], [cvqe()], [lcvqe()],
#' [cop_kmeans()], [pck_means()], [mpck_means()], [ib_kmeans()],
#' [disparate_kmeans()], [discriminative_clustering()], [ib()], [sib()],
#' [itcc()], [multiway_clustering()], [kpartite_clustering()],
#' [parallel_ib()], [symmetric_ib()]), the chains of
#' [tvclust()] and the fits of [tune_side()] run through the \pkg{future}
#' plan the user sets (`future::plan(multisession)`, `cluster`, a scheduler
#' through \pkg{future.batchtools}); without a plan they run in the session.
#' Each run has its own random stream derived from R's seed, so
#' [set.seed()] gives the same result under every plan and number of
#' workers. Progress goes to \pkg{progressr}. See `vignette("parameters")`.
#'
#' @section Portable kernels:
#' On x86-64 processors with AVX, the distance sweeps of [dp_means()] and
#' [rdp_means()] (dense points, squared Euclidean distance), [lcvqe()],
#' [cop_kmeans()], [pck_means()] and [mpck_means()] (metrics `"none"` and
#' `"diagonal"`) compute four distances per instruction; elsewhere they run
#' portable kernels that do the same operations in the same order.
#' `options(sideclust.portable_kernels = TRUE)` forces the portable kernels
#' from the next fit on, also in the workers of a future plan that runs
#' restarts; use it to rule out the AVX code, e.g. in a bug report. The
#' environment variable `SIDECLUST_PORTABLE` (`1` or `true`; `0` or `false`)
#' sets that option when the package is loaded, unless the option is already
#' set, so that a whole run, such as the test suite, takes the portable
#' kernels: `SIDECLUST_PORTABLE=1 Rscript script.R`.
#'
#' @keywords internal
#' @useDynLib sideclust, .registration = TRUE
#' @importFrom Rcpp sourceCpp
#' @importClassesFrom Matrix TsparseMatrix generalMatrix CsparseMatrix dMatrix
"_PACKAGE"
