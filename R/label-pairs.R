#' Label pairs by hand, in the browser or the console
#'
#' Asks a person the pairs [query_pairs()] chooses, one at a time: are these
#' two items in the same cluster or not? In the browser (a Shiny gadget) each
#' pair shows the two items' values side by side, what `render_item` draws
#' of each (an image, a document's text), and a map of the data (the first
#' two principal components, coloured by the current clustering when there
#' is a fit) with the two points marked; buttons or keys answer. Every answer
#' is appended to `file` the moment it is given, and a session started with
#' an existing `file` resumes from it: the answers become constraints, the
#' skipped pairs are not asked again, and the queries continue from there.
#' So closing the tab or a crash of R loses nothing that was answered (each
#' line is handed to the operating system as it is given; R cannot make the
#' disk write it at once, so a crash of the machine itself might lose the
#' last answers).
#'
#' @section Keys:
#' `s` or `1`: same cluster (must-link); `d` or `2`: different clusters
#' (cannot-link); `k` or `3`: skip (don't know; the pair is not asked
#' again); `q` or Escape: done. In the console type the same letters (or
#' digits) and Enter.
#'
#' @section The answers file:
#' A CSV file with the header line `i,j,answer,time` and one line per
#' answer: the two points (row numbers of `x`), `must`, `cannot` or `skip`,
#' and the time (UTC). Lines are only ever appended, each written and closed
#' at once. Read it with [read_pair_answers()] and turn it into constraints
#' with [as_constraints()]; the last answer given on a pair wins.
#'
#' @section Interfaces:
#' `"browser"` runs the gadget with [shiny::runGadget()] in the web browser
#' and needs \pkg{shiny}; `"console"` asks with [readline()] (or from
#' standard input when R is not interactive: lines of answers can be piped
#' in); by default the browser when R is interactive and shiny is installed,
#' else the console. `"app"` returns the Shiny app object without running
#' it, to run it yourself ([shiny::runApp()], a server, or a test driver):
#' it returns the constraints through [shiny::stopApp()] when done.
#' In the browser and the app, "Done" or closing the tab ends the session
#' (and the app) and returns the constraints.
#'
#' @param x The data: a numeric matrix or data frame, one row per item. Its
#'   values are shown and the queries use them.
#' @param file The path of the answers file (see The answers file); created
#'   when it does not exist, resumed from when it does.
#' @param side Constraints known before labelling (anything
#'   [as_constraints()] accepts, e.g. a fit's `side`), or `NULL`: their pairs
#'   are not asked, and the result includes them. By default a fit's side
#'   information when `fit` is a fit.
#' @param strategy The query strategy of [query_pairs()]:
#'   `"explore_consolidate"` (the default: the first questions find one item
#'   per cluster), `"random"`, `"min_max"`, `"npu"` or `"uncertainty"` (needs
#'   a fit with a posterior).
#' @param fit The clustering shown and used by the queries: `NULL` (none), a
#'   fit of the package (kept as it is; its posterior feeds
#'   `"uncertainty"`), or a method refitted after each batch of answers: a
#'   method name of [active_side()] (`"rdp_means"`, `"tvclust"`, ...; fitted
#'   as `active_side()` fits it, RDP-means with whole-chunklet moves) or a
#'   function `(x, side, previous)` returning a fit.
#' @param render_item `NULL`, or a function of the row number `i` returning
#'   what to show of item `i`: HTML (a Shiny tag or [shiny::HTML()]), a
#'   character vector (shown as text), or a plot (drawn by the function, or
#'   a visible value that prints as one, e.g. a ggplot).
#' @param k The number of neighbourhoods Explore-Consolidate and Min-Max
#'   explore for (and given to a refitted method); by default the fit's
#'   number of clusters.
#' @param batch How many pairs are chosen at once (see [query_pairs()]);
#'   they are asked one after the other, then the method is refitted.
#' @param budget Stop asking after this many answers in the file (skips
#'   count), or `NULL` for no limit.
#' @param interface `"browser"`, `"console"` or `"app"`; see Interfaces.
#' @param query_args A list of further arguments for [query_pairs()]
#'   (not `infer`: every pair returned here was answered, none inferred).
#'   `confirm` is off unless given: it would show a person the pair just
#'   answered again, which mostly repeats the answer (see Confirmed
#'   neighbourhoods in [query_pairs()]).
#' @return The constraints (class `sideclust_constraints`): `side` plus
#'   every answer in `file`. With `interface = "app"`, the Shiny app.
#' @seealso [query_pairs()], [active_side()] (the same loop with an oracle),
#'   [read_pair_answers()].
#' @examples
#' x <- scale(iris[, 1:4])
#' file <- tempfile(fileext = ".csv")
#' if (interactive()) {
#'   # answer a few pairs in the browser, close with "Done" (or q)
#'   side <- label_pairs(x, file, k = 3, fit = "rdp_means",
#'                       render_item = function(i) paste("Species:", iris$Species[i]))
#'   # later, the same call resumes where it stopped
#'   side <- label_pairs(x, file, k = 3, fit = "rdp_means")
#'   rdp_means(x, side, k = 3)
#' }
#' # the file can be read at any time, e.g. after a crash
#' answers <- read_pair_answers(file, n = nrow(x))
#' as_constraints(answers, n = nrow(x))
#' @export
label_pairs <- function(x, file, side = NULL,
                        strategy = c("explore_consolidate", "random", "min_max", "npu", "uncertainty"),
                        fit = NULL, render_item = NULL, k = NULL, batch = 1L, budget = NULL,
                        interface = NULL, query_args = list()) {
  x <- check_data_matrix(x, "x", min_rows = 2L)
  n <- nrow(x)
  if (missing(file)) stop_arg("file", "is required: the path of the answers file (e.g. \"answers.csv\"), resumed from when it exists")
  file <- check_answers_path(file)
  strategy <- match_arg(strategy)
  batch <- check_count(batch, "batch", lower = 1L)
  if (!is.null(budget)) budget <- check_count(budget, "budget", lower = 1L)
  if (!is.null(k)) k <- check_count(k, "k", lower = 1L, upper = n)
  if (!is.null(render_item) && !is.function(render_item)) {
    stop_arg("render_item", "must be NULL or a function of the row number i")
  }
  if (!is.list(query_args)) stop_arg("query_args", "must be a list of named arguments")
  if (strategy == "uncertainty" && is.null(fit)) {
    stop_arg("fit", "is needed by strategy = \"uncertainty\": a fit with a posterior, or a method such as \"tvclust\"")
  }
  if (inherits(fit, "sideclust")) {
    if (length(fit$cluster) != n) {
      stop_arg("fit", sprintf("is a fit of %d points but `x` has %d rows", length(fit$cluster), n))
    }
    if (missing(side)) side <- fit$side
  }
  side <- as_side_info(side, n, "side")
  side <- if (inherits(side, "sideclust_labels")) expand_labels(side) else active_pairs(side, n)
  interface <- labelling_interface(interface)
  lab <- new_labelling(x, side, file, strategy, labelling_fit(fit, k), k, batch, budget, query_args)
  switch(interface,
         console = label_pairs_console(lab, render_item),
         app = label_pairs_app(lab, render_item),
         browser = shiny::runGadget(label_pairs_app(lab, render_item), viewer = shiny::browserViewer(),
                                    stopOnCancel = FALSE))
}

labelling_interface <- function(interface) {
  has_shiny <- requireNamespace("shiny", quietly = TRUE)
  if (is.null(interface)) return(if (interactive() && has_shiny) "browser" else "console")
  interface <- match_choice(interface, c("browser", "console", "app"), "interface")
  if (interface != "console" && !has_shiny) {
    stop_arg("interface", "\"", interface, "\" needs the shiny package: install.packages(\"shiny\"), ",
             "or use interface = \"console\"")
  }
  interface
}
