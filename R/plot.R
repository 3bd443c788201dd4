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
#' @param max_links Largest number of kept constraints drawn (an evenly
#'   spaced subset beyond that); violated ones are always drawn.
#' @param main Title.
#' @param ... Further arguments for [graphics::plot()].
#' @return `x`, invisibly.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(2)
#' side <- sample_constraints(iris$Species, rate = 0.002, noise = 0.1)
#' fit <- rdp_means(x, side, k = 3)
#' plot(fit, x)
#' @export
plot.sideclust <- function(x, data, side = x$side, max_links = 300L,
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
  # Links first, points over them, centres on top.
  graphics::plot(view$xy, type = "n", xlab = view$labels[1],
                 ylab = view$labels[2], main = main, ...)
  legend_items <- NULL
  if (!is.null(side)) side <- as_side_info(side, n = nrow(data), arg = "side")
  if (inherits(side, "sideclust_constraints") && length(side$i) > 0L) {
    draw_links(view$xy, side, x$cluster, max_links)
    legend_items <- list(legend = c("must-link", "cannot-link", "violated"),
                         col = c("grey45", "grey45", "red"), lty = c(1, 2, 1),
                         lwd = c(1, 1, 1.5), pch = c(NA, NA, NA))
  }
  graphics::points(view$xy, col = colours[x$cluster], pch = 19, cex = 0.8)
  if (inherits(side, "sideclust_labels")) {
    graphics::points(view$xy[!is.na(side$labels), , drop = FALSE], cex = 1.2)
    legend_items <- list(legend = "labelled point", col = "black", lty = NA,
                         lwd = 1, pch = 1)
  }
  if (!is.null(x$centers) && identical(x$divergence, "sqeuclidean") &&
      !is.null(view$project)) {
    graphics::points(view$project(x$centers), pch = 4, cex = 2, lwd = 3)
    legend_items$legend <- c(legend_items$legend, "centre")
    legend_items$col <- c(legend_items$col, "black")
    legend_items$lty <- c(legend_items$lty, NA)
    legend_items$lwd <- c(legend_items$lwd, 3)
    legend_items$pch <- c(legend_items$pch, 4)
  }
  if (!is.null(legend_items)) {
    do.call(graphics::legend, c(list("topright", bg = "white", cex = 0.8),
                                legend_items))
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
  seg(kept, grDevices::adjustcolor("grey45", 0.35), 1)
  seg(which(violated), grDevices::adjustcolor("red", 0.6), 1.5)
}
