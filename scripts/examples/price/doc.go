// Command price is an example gas price source for `validatord miner run`'s
// gas track: a persistence forecast, the simplest honest predictor.
//
// Contract: stdin is one JSON object
//
//	{"evm_chain_id":C,"head":H,"blocks":[b1,b2,…],"evm_rpc":"http://…"}
//
// (the EVM chain, its current head as the daemon sees it, the blocks to
// predict and an EVM JSON-RPC endpoint). stdout is one decimal price per
// line, one per block of "blocks" in order, in gwei (the unit of the chain's
// GasPredict.price and MsgTruth.min_price; at most 9 decimal places, always
// positive). It asks the endpoint for the latest block with its transactions
// (eth_getBlockByNumber "latest", true), takes the least non-zero price a
// transaction paid in it (its effective gas price, as the oracle computes
// it), and predicts that price for every block; when the block paid no
// non-zero price it uses eth_gasPrice. It checks eth_chainId against
// evm_chain_id first. -timeout bounds the whole run (default 10s). A
// non-zero exit status with a message on stderr means no prediction.
package main
