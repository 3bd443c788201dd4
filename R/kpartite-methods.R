#' Print, summarize and plot a k-partite clustering
#'
#' `print()` and `summary()` give the clusters per type and the objective;
#' `summary()` adds each relation's share of the objective and the
#' cluster-level weight matrices. `plot()` draws the summary network: one
#' column of cluster vertices per type (area proportional to the cluster's
#' size), named in the bottom margin, and, between the clusters of related
#' types, edges whose width and darkness grow with the cluster-level weight
#' (scaled within each relation; edges below `min_weight` times the
#' relation's largest weight are not drawn). The y range leaves room for the
#' largest circle at the top and bottom, and all circles shrink alike when
#' the plot region is too small to keep them apart.
#'
#' @param x,object A fit from [kpartite_clustering()].
#' @param digits Significant digits to print.
#' @param min_weight Fraction of a relation's largest weight below which an
#'   edge is not drawn.
#' @param main Title.
#' @param ... Unused by `print()` and `summary()`; further arguments for
#'   [graphics::plot()] in `plot()`.
#' @return `print()` and `plot()` return `x` invisibly; `summary()` an object
#'   of class `summary.kpartite_clustering`.
#' @examples
#' set.seed(1)
#' planted <- function(m, n, high) {
#'   rate <- ifelse(outer(rep(1:2, length.out = m), rep(1:2, length.out = n), "=="), high, 1)
#'   matrix(rpois(m * n, rate), m, n)
#' }
#' a <- planted(20, 12, 5)
#' b <- planted(12, 8, 4)
#' fit <- kpartite_clustering(list(a, b), k = c(2, 2, 2), restarts = 3)
#' fit
#' summary(fit)
#' plot(fit)
#' @name kpartite-methods
NULL

#' @rdname kpartite-methods
#' @export
print.kpartite_clustering <- function(x, digits = 4L, ...) {
  cat(sprintf("k-partite clustering of %d types (%s vertices) by %d relation%s, %s\n",
              length(x$k), paste(x$n_vertices, collapse = ", "), nrow(x$types),
              if (nrow(x$types) == 1L) "" else "s", kp_divergence_label(x$divergence)))
  for (t in seq_along(x$k)) {
    cat(sprintf("  %s: %d clusters, sizes %s\n", names(x$k)[t], x$k[t],
                format_sizes(x$size[[t]])))
  }
  cat_objective(x, digits)
  print_components(x)
}

kp_divergence_label <- function(divergence) {
  c(euclidean = "squared Euclidean distance",
    idivergence = "generalized I-divergence")[[divergence]]
}

#' @rdname kpartite-methods
#' @export
summary.kpartite_clustering <- function(object, ...) {
  out <- list(k = object$k, n_vertices = object$n_vertices, size = object$size,
              objective = utils::tail(object$objective, 1L),
              relation_objective = object$relation_objective,
              cluster_relations = object$cluster_relations,
              divergence = object$divergence, iterations = object$iterations,
              converged = object$converged)
  class(out) <- "summary.kpartite_clustering"
  out
}

#' @rdname kpartite-methods
#' @export
print.summary.kpartite_clustering <- function(x, digits = 4L, ...) {
  cat(sprintf("k-partite clustering (%s): %d iterations (%s)\n",
              kp_divergence_label(x$divergence), x$iterations,
              convergence_status(x$converged)))
  cat("\nClusters per type:\n")
  print(data.frame(type = names(x$k), vertices = x$n_vertices, clusters = x$k,
                   sizes = vapply(x$size, format_sizes, ""), row.names = NULL),
        row.names = FALSE)
  cat("\nObjective:", format(x$objective, digits = digits), "\n")
  print(x$relation_objective, digits = digits)
  cat("\nCluster-level weights (rows: clusters of the first type):\n")
  for (r in names(x$cluster_relations)) {
    cat(r, ":\n", sep = "")
    print(x$cluster_relations[[r]], digits = digits)
  }
  invisible(x)
}

#' @rdname kpartite-methods
#' @export
plot.kpartite_clustering <- function(x, min_weight = 0.05, main = "Relation summary network", ...) {
  min_weight <- check_number(min_weight, "min_weight", lower = 0, upper = 1)
  n_types <- length(x$k)
  xlim <- c(0.5, n_types + 0.5)
  graphics::plot(NA, xlim = xlim, ylim = c(0, 1), axes = FALSE, xlab = "", ylab = "",
                 main = main, ...)
  # Only now is the size of the plot region known: fit the circles into it
  # and set the y range so that none is cut at the top or bottom.
  lay <- kp_plot_layout(x$k, x$size, graphics::par("pin"),
                        graphics::par("cin")[2] * graphics::par("cex"))
  graphics::plot.window(xlim = xlim, ylim = lay$ylim)
  # Cluster vertex (t, p) at (t, y), clusters of a type spread over [0, 1].
  y_of <- function(t) if (x$k[t] == 1L) 0.5 else seq(1, 0, length.out = x$k[t])
  for (r in seq_len(nrow(x$types))) {
    a <- x$types[r, 1L]
    b <- x$types[r, 2L]
    w <- x$cluster_relations[[r]]
    top <- max(abs(w))
    if (!(top > 0)) next
    ya <- y_of(a)
    yb <- y_of(b)
    for (p in seq_len(nrow(w))) for (q in seq_len(ncol(w))) {
      rel <- abs(w[p, q]) / top
      if (rel < min_weight) next
      graphics::segments(a, ya[p], b, yb[q], lwd = 0.5 + 5 * rel,
                         col = grDevices::gray(0.85 * (1 - rel)))
    }
  }
  for (t in seq_len(n_types)) {
    graphics::points(rep(t, x$k[t]), y_of(t), pch = 21, bg = "white", cex = lay$cex[[t]])
    graphics::text(rep(t, x$k[t]), y_of(t), seq_len(x$k[t]), cex = lay$label_cex)
  }
  # type names in the bottom margin, outside the region the circles fill
  graphics::mtext(names(x$k), side = 1, at = seq_len(n_types), line = 0.5, font = 2)
  invisible(x)
}

# Circle sizes (cex per cluster, area proportional to its size) and the y
# range of plot.kpartite_clustering() for a plot region of `pin` inches (width, height)
# and characters `char_h` inches high. A pch 21 circle of size cex has
# radius 0.375 * cex * char_h / 2 inches. All circles shrink by one factor
# (at most 1) until neighbours in a column are 10% apart, the padding above
# and below takes at most half of the height, and columns do not touch; the
# y range then extends [0, 1] by the largest radius.
kp_plot_layout <- function(k, size, pin, char_h) {
  cex0 <- lapply(size, function(s) 1.5 + 3 * sqrt(s / max(s)))
  radius <- function(cex) 1.05 * 0.1875 * char_h * cex  # inches, with room for the line
  r_max <- max(radius(unlist(cex0)))
  scale <- min(1, 0.25 * pin[2] / r_max, 0.45 * pin[1] / length(k) / r_max)
  for (t in which(k > 1L)) {
    r <- radius(cex0[[t]])
    pair <- max(r[-1L] + r[-length(r)])
    # pair * s <= 0.9 * (pin_h - 2 * s * r_max) / (k - 1)
    scale <- min(scale, 0.9 * pin[2] / ((k[t] - 1) * pair + 1.8 * r_max))
  }
  pad_in <- scale * r_max
  pad <- pad_in / (pin[2] - 2 * pad_in)  # in units of the [0, 1] column height
  list(cex = lapply(cex0, `*`, scale), label_cex = 0.8 * scale, ylim = c(-pad, 1 + pad))
}

method_label.kpartite_clustering <- function(object) "k-partite clustering"
