# Stored outputs of the peer packages (mclust, CEC, conclust) on fixed inputs,
# made by fixtures/make-fixtures.R: each comparison with a peer also runs
# against these, so it holds where the peer is not installed.
read_fixture <- function(name) {
  readRDS(test_path("fixtures", paste0(name, ".rds")))
}

# The constraints of a conclust fixture, from its pairs table.
fixture_side <- function(input) {
  constraints(input$pairs, n = nrow(input$x))
}
