#' Cut an agglomerative information-bottleneck tree
#'
#' `aib_cut()` gives the partition after `nrow - k` merges of an [aib()] fit
#' (as [stats::cutree()] does for `hclust`); `as.hclust()` turns the fit into
#' an `hclust` object whose heights are the cumulative loss \eqn{I(X;Y) -
#' I(C;Y)}, for [stats::cutree()], dendrograms and friends.
#'
#' @param fit,x An [aib()] fit.
#' @param k Number of clusters (one or more values).
#' @param ... Unused.
#' @return `aib_cut()`: integer clusters numbered by first row, or a matrix
#'   with one column per `k`; `as.hclust()`: an `hclust` object.
#' @examples
#' set.seed(1)
#' counts <- matrix(rpois(20 * 5, rep(c(1, 6), each = 50)), 20, 5)
#' tree <- aib(counts + 1)
#' aib_cut(tree, 2)
#' head(aib_cut(tree, 2:4))
#' plot(stats::as.hclust(tree))
#' @export
aib_cut <- function(fit, k) {
  if (!inherits(fit, "aib")) stop_arg("fit", "must be an aib() fit")
  n <- nrow(fit$merge) + 1L
  if (!is.numeric(k) || anyNA(k) || any(k != round(k)) || any(k < 1 | k > n)) {
    stop_arg("k", sprintf("must be whole numbers in 1..%d", n))
  }
  out <- stats::cutree(stats::as.hclust(fit), k = k)
  if (is.matrix(out)) apply(out, 2L, first_seen) else first_seen(unname(out))
}

#' @rdname aib_cut
#' @importFrom stats as.hclust
#' @export
as.hclust.aib <- function(x, ...) {
  structure(list(merge = x$merge, height = x$height, order = x$order,
                 labels = x$labels, method = "aib", call = x$call,
                 dist.method = "information loss"), class = "hclust")
}

#' Plots of information-bottleneck and co-clustering fits
#'
#' `plot()` of an [aib()] fit draws the information curve: \eqn{I(C;Y) /
#' I(X;Y)} against the number of clusters (log scale), or against
#' \eqn{I(C;X)} with `against = "info_x"`. For [itcc()] and
#' [cross_associations()] it draws the data matrix with rows and columns
#' re-ordered by cluster, cluster boundaries as lines; for [sib()] and [ib()]
#' the same with rows re-ordered. Large matrices are shown on a grid of at
#' most `max_cells` cells per side (block sums).
#'
#' @param x A fit.
#' @param data The matrix that was clustered; by default the fit's copy.
#' @param against For aib: `"k"` or `"info_x"`.
#' @param max_cells Largest number of image cells per side.
#' @param main Title.
#' @param ... Further arguments for [graphics::plot()] or [graphics::image()].
#' @return `x`, invisibly.
#' @examples
#' set.seed(1)
#' counts <- matrix(rpois(30 * 8, rep(c(1, 6, 3), each = 80)), 30, 8) + 1
#' plot(aib(counts))
#' plot(sib(counts, k = 3), counts)
#' @name info-plots
NULL

#' @rdname info-plots
#' @export
plot.aib <- function(x, against = c("k", "info_x"), main = NULL, ...) {
  against <- match_arg(against)
  curve <- x$info_curve
  rel <- curve$info_y / x$info_xy
  if (is.null(main)) main <- "Agglomerative IB: information curve"
  if (against == "k") {
    graphics::plot(curve$k, rel, type = "l", log = "x", xlab = "number of clusters",
                   ylab = "I(C;Y) / I(X;Y)", main = main, ...)
    graphics::points(x$k, x$info_y / x$info_xy, pch = 19)
  } else {
    graphics::plot(curve$info_x, rel, type = "l", xlab = "I(C;X) (nats)",
                   ylab = "I(C;Y) / I(X;Y)", main = main, ...)
  }
  invisible(x)
}

#' @rdname info-plots
#' @export
plot.itcc <- function(x, data = x$data, max_cells = 300L, main = NULL, ...) {
  plot_blocks(x, data, x$col_cluster, max_cells, main, ...)
}

#' @rdname info-plots
#' @export
plot.cross_associations <- plot.itcc

#' @rdname info-plots
#' @export
plot.sib <- function(x, data = x$data, max_cells = 300L, main = NULL, ...) {
  plot_blocks(x, data, NULL, max_cells, main, ...)
}

#' @rdname info-plots
#' @export
plot.ib <- plot.sib

plot_blocks <- function(x, data, col_cluster, max_cells, main, ...) {
  if (is.null(data)) {
    stop_arg("data", "is missing and the fit keeps no copy of its data; call plot(fit, data)")
  }
  csr <- if (inherits(data, "Matrix")) sparse_csr(data, "data") else
    dense_csr(check_data_matrix(data, "data"))
  if (csr$n_rows != length(x$cluster) ||
      (!is.null(col_cluster) && csr$n_cols != length(col_cluster))) {
    stop_arg("data", "does not have the dimensions of the clustered matrix")
  }
  if (is.null(col_cluster)) col_cluster <- rep(1L, csr$n_cols)
  row_pos <- order_position(x$cluster)
  col_pos <- order_position(col_cluster)
  nr <- min(csr$n_rows, max_cells)
  nc <- min(csr$n_cols, max_cells)
  rb <- ceiling(row_pos * nr / csr$n_rows)
  cb <- ceiling(col_pos * nc / csr$n_cols)
  er <- csr_rows(csr$ptr, seq_along(csr$idx) - 1L)
  cell <- rb[er] + nr * (cb[csr$idx + 1L] - 1L)
  z <- matrix(0, nr, nc)
  sums <- rowsum(csr$val, cell)
  z[as.integer(rownames(sums))] <- sums
  if (is.null(main)) main <- sprintf("%s: re-ordered matrix", method_label(x))
  graphics::image(seq_len(nc), seq_len(nr), t(z[nr:1, , drop = FALSE]),
                  col = grDevices::gray.colors(64, start = 1, end = 0),
                  xlab = "columns (by cluster)", ylab = "rows (by cluster)",
                  main = main, axes = FALSE, ...)
  line_at <- function(cl, nb, n) {
    cum <- cumsum(tabulate(cl))
    utils::head(cum, -1L) * nb / n + 0.5
  }
  graphics::abline(h = nr + 1 - line_at(x$cluster, nr, csr$n_rows), col = "red")
  graphics::abline(v = line_at(col_cluster, nc, csr$n_cols), col = "red")
  graphics::box()
  invisible(x)
}

# Position of each item when items are sorted by cluster (stable).
order_position <- function(cl) {
  pos <- integer(length(cl))
  pos[order(cl)] <- seq_along(cl)
  pos
}

method_label.ib <- function(object) "Iterative IB"

method_label.aib <- function(object) "Agglomerative IB"

method_label.sib <- function(object) "Sequential IB"
