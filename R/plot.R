#' Plot a clustering with its side information
#'
#' Draws the points in two dimensions (the data itself when it has two
#' columns, the first two principal components when it has more, the values
#' against their index when it has one), coloured by cluster. Must-links are
#' drawn as solid segments, cannot-links as dashed ones, and the violated ones
#' in red on top. Labelled points (partial labels) are ringed.
#'
#' @param x A `sideclust` fit.
#' @param data The data that was clustered (the fit does not keep a copy).
#' @param side Side information to draw; by default the fit's.
#' @param max_links Largest number of constraints drawn (
#'   an evenly spaced subset of the kept ones beyond that; violated ones are always drawn).
#' @param main Title.
#' @param ... Further arguments for [graphics::plot()].
#' @return `x`, invisibly.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(2)
#' side <- sample_constraints(iris$Species, rate = 0.002, accuracy = 0.9)
#' fit <- rdp_means(x, side, k = 3)
#' plot(fit, x)
#' @export
plot.sideclust <- function(x, data, side = x$side, max_links = 2000L,
                           main = NULL, ...) {
  if (missing(data)) {
    stop_arg("data", "is missing: the fit keeps no copy of the data, so call plot(fit, data)")
  }
  data <- check_data_matrix(data, "data")
  if (nrow(data) != length(x$cluster)) {
    stop_arg("data", sprintf("has %d rows but the fit clustered %d points",
                             nrow(data), length(x$cluster)))
  }
  view <- plane_view(data)
  k <- max(x$cluster)
  colours <- grDevices::hcl.colors(max(k, 2L), "Dark 3")[seq_len(k)]
  if (is.null(main)) main <- sprintf("%s: %d clusters", method_label(x), x$k)
  graphics::plot(view$xy, col = colours[x$cluster], pch = 19, cex = 0.6,
                 xlab = view$labels[1], ylab = view$labels[2], main = main, ...)
  if (!is.null(side)) {
    side <- as_side_info(side, n = nrow(data), arg = "side")
    if (inherits(side, "sideclust_labels")) {
      lab <- !is.na(side$labels)
      graphics::points(view$xy[lab, , drop = FALSE], cex = 1.1)
    } else {
      draw_links(view$xy, side, x$cluster, max_links)
    }
  }
  if (!is.null(x$centers) && identical(x$divergence, "sqeuclidean") &&
      !is.null(view$project)) {
    graphics::points(view$project(x$centers), pch = 4, cex = 2, lwd = 3)
  }
  invisible(x)
}

# Two plotting coordinates for the rows of a matrix, and a projection for new
# rows (centres) into the same plane.
plane_view <- function(data) {
  if (ncol(data) == 1L) {
    return(list(xy = cbind(seq_len(nrow(data)), data[, 1]),
                labels = c("index", colnames(data)[1] %||% "x"), project = NULL))
  }
  if (ncol(data) == 2L) {
    nm <- colnames(data) %||% c("x1", "x2")
    return(list(xy = data, labels = nm, project = function(m) m))
  }
  pca <- stats::prcomp(data)
  list(xy = pca$x[, 1:2], labels = c("PC1", "PC2"),
       project = function(m) stats::predict(pca, m)[, 1:2, drop = FALSE])
}

`%||%` <- function(a, b) if (is.null(a)) b else a

draw_links <- function(xy, side, cluster, max_links) {
  violated <- side$must != (cluster[side$i] == cluster[side$j])
  kept <- which(!violated)
  if (length(kept) > max_links) {  # an even, deterministic subset
    kept <- kept[unique(round(seq(1, length(kept), length.out = max_links)))]
  }
  seg <- function(idx, col, lwd) {
    if (length(idx) == 0L) return(invisible())
    graphics::segments(xy[side$i[idx], 1], xy[side$i[idx], 2],
                       xy[side$j[idx], 1], xy[side$j[idx], 2],
                       col = col, lwd = lwd, lty = ifelse(side$must[idx], 1, 2))
  }
  seg(kept, grDevices::adjustcolor("grey40", 0.5), 1)
  seg(which(violated), "red", 2)
}
