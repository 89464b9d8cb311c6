// Ops of other dialects whose headers declare region arguments in their own
// ways, or list uses in parentheses with their types.
#id = affine_map<(d0) -> (d0)>
func.func @dialects(%a: tensor<8xf32>, %b: tensor<8xf32>, %m: memref<8xf32>, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %f = linalg.fill ins(%c0 : index) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %w = scf.while (%i = %c0) : (index) -> index {
    %t = arith.cmpi slt, %i, %n : index
    scf.condition(%t) %i : index
  } do {
  ^bb0(%i: index):
    %j = arith.addi %i, %c1 : index
    scf.yield %j : index
  }
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<8xf32>) {
    scf.yield %acc : tensor<8xf32>
  }
  scf.parallel (%p, %q) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %l = memref.load %m[%p] : memref<8xf32>
    scf.reduce
  }
  affine.for %z = 0 to 8 {
    %v = affine.load %m[%z] : memref<8xf32>
  }
  %h = scf.forall (%u) in (%n) shared_outs(%out = %e) -> (tensor<8xf32>) {
  }
  cf.br ^bb1(%g : tensor<8xf32>)
^bb1(%last: tensor<8xf32>):
  return %last : tensor<8xf32>
}
