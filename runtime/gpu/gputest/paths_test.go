package gputest

// testdataDir holds the Go reference's golden vectors (runtime/testdata).
const testdataDir = "../../testdata"
