package gputest

// testdataDir holds the Go reference's golden vectors (reference/testdata).
const testdataDir = "../../reference/testdata"
