// The data-movement computes (reshapes, slices, joins, padding, resizing,
// gathers, shape producers) against ONNX's node tests.
//
// Operands that Tessel needs as constants (Reshape's shape, Slice's starts,
// Resize's scales ...) are graph inputs in these tests; the second column lists
// the inputs bound to their test values as constants.
//
// Not listed:
// - test_split_zero_size_splits, test_constantofshape_int_shape_zero,
//   test_reshape_allowzero_reordered, test_slice_start_out_of_bounds: zero-sized
//   tensors (an input or output with a dimension of 0), which Tessel does not have.
// - test_range_*_expanded: the expansion is a Loop (subgraphs are not supported).
// - test_gather_elements_*, test_gathernd_*: other operators (GatherElements, GatherND).
#include "TopiTestUtil.h"

#include <QtTest>

#include <stdexcept>

using tessel::te::Tensor;

class TestTopiTransform : public QObject {
    Q_OBJECT
private slots:
    void nodeTests_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QList<int>>("constantInputs");
        auto row = [](const char* name, QList<int> constants) {
            QTest::newRow(name) << QString(name) << constants;
        };
        for (const char* n : {"test_reshape_extended_dims", "test_reshape_negative_dim",
                              "test_reshape_negative_extended_dims", "test_reshape_one_dim",
                              "test_reshape_reduced_dims", "test_reshape_reordered_all_dims",
                              "test_reshape_reordered_last_dims",
                              "test_reshape_zero_and_negative_dim", "test_reshape_zero_dim"})
            row(n, {1});
        for (const char* n : {"test_flatten_axis0", "test_flatten_axis1", "test_flatten_axis2",
                              "test_flatten_axis3", "test_flatten_default_axis",
                              "test_flatten_negative_axis1", "test_flatten_negative_axis2",
                              "test_flatten_negative_axis3", "test_flatten_negative_axis4"})
            row(n, {});
        for (const char* n : {"test_squeeze", "test_squeeze_negative_axes", "test_unsqueeze_axis_0",
                              "test_unsqueeze_axis_1", "test_unsqueeze_axis_2",
                              "test_unsqueeze_negative_axes", "test_unsqueeze_three_axes",
                              "test_unsqueeze_two_axes", "test_unsqueeze_unsorted_axes"})
            row(n, {1});
        row("test_unsqueeze_axis_3", {}); // opset 11: axes is an attribute
        for (const char* n :
             {"test_transpose_all_permutations_0", "test_transpose_all_permutations_1",
              "test_transpose_all_permutations_2", "test_transpose_all_permutations_3",
              "test_transpose_all_permutations_4", "test_transpose_all_permutations_5",
              "test_transpose_default"})
            row(n, {});
        for (const char* n : {"test_depthtospace_crd_mode", "test_depthtospace_crd_mode_example",
                              "test_depthtospace_dcr_mode", "test_depthtospace_example", "test_spacetodepth",
                              "test_spacetodepth_example"})
            row(n, {});
        for (const char* n :
             {"test_concat_1d_axis_0", "test_concat_1d_axis_negative_1", "test_concat_2d_axis_0",
              "test_concat_2d_axis_1", "test_concat_2d_axis_negative_1",
              "test_concat_2d_axis_negative_2", "test_concat_3d_axis_0", "test_concat_3d_axis_1",
              "test_concat_3d_axis_2", "test_concat_3d_axis_negative_1",
              "test_concat_3d_axis_negative_2", "test_concat_3d_axis_negative_3"})
            row(n, {});
        for (const char* n : {"test_split_equal_parts_1d", "test_split_equal_parts_2d",
                              "test_split_equal_parts_default_axis"})
            row(n, {});
        for (const char* n : {"test_split_variable_parts_1d", "test_split_variable_parts_2d",
                              "test_split_variable_parts_default_axis"})
            row(n, {1});
        for (const char* n : {"test_slice", "test_slice_end_out_of_bounds", "test_slice_neg",
                              "test_slice_neg_steps"})
            row(n, {1, 2, 3, 4});
        row("test_slice_default_axes", {1, 2});
        row("test_slice_default_steps", {1, 2, 3});
        row("test_slice_negative_axes", {1, 2, 3});
        // The indices stay graph inputs: the compute reads and wraps them at run time.
        for (const char* n : {"test_gather_0", "test_gather_1", "test_gather_2d_indices",
                              "test_gather_negative_indices"})
            row(n, {});
        row("test_constant_pad", {1}); // the pad value stays a graph input (read at run time)
        row("test_edge_pad", {1});
        row("test_reflect_pad", {1});
        for (const char* n : {"test_resize_downsample_scales_cubic",
                              "test_resize_downsample_scales_cubic_A_n0p5_exclude_outside",
                              "test_resize_downsample_scales_cubic_align_corners",
                              "test_resize_downsample_scales_linear",
                              "test_resize_downsample_scales_linear_align_corners",
                              "test_resize_downsample_scales_nearest",
                              "test_resize_downsample_sizes_cubic",
                              "test_resize_downsample_sizes_linear_pytorch_half_pixel",
                              "test_resize_downsample_sizes_nearest",
                              "test_resize_downsample_sizes_nearest_tf_half_pixel_for_nn",
                              "test_resize_upsample_scales_cubic",
                              "test_resize_upsample_scales_cubic_A_n0p5_exclude_outside",
                              "test_resize_upsample_scales_cubic_align_corners",
                              "test_resize_upsample_scales_cubic_asymmetric",
                              "test_resize_upsample_scales_linear",
                              "test_resize_upsample_scales_linear_align_corners",
                              "test_resize_upsample_scales_nearest",
                              "test_resize_upsample_sizes_cubic",
                              "test_resize_upsample_sizes_nearest",
                              "test_resize_upsample_sizes_nearest_ceil_half_pixel",
                              "test_resize_upsample_sizes_nearest_floor_align_corners",
                              "test_resize_upsample_sizes_nearest_round_prefer_ceil_asymmetric",
                              "test_upsample_nearest"})
            row(n, {1});
        row("test_resize_tf_crop_and_resize", {1, 2});
        row("test_expand_dim_changed", {1});
        row("test_expand_dim_unchanged", {1});
        row("test_tile", {1});
        row("test_tile_precomputed", {1});
        for (const char* n :
             {"test_shape", "test_shape_clip_end", "test_shape_clip_start", "test_shape_end_1",
              "test_shape_end_negative_1", "test_shape_example", "test_shape_start_1",
              "test_shape_start_1_end_2", "test_shape_start_1_end_negative_1",
              "test_shape_start_negative_1", "test_size", "test_size_example"})
            row(n, {});
        row("test_constantofshape_float_ones", {0});
        row("test_constantofshape_int_zeros", {0});
        row("test_range_float_type_positive_delta", {0, 1, 2});
        row("test_range_int32_type_negative_delta", {0, 1, 2});
    }
    void nodeTests() {
        QFETCH(QString, name);
        QFETCH(QList<int>, constantInputs);
        tessel::topi::test::NodeTestOptions o;
        o.constantInputs.assign(constantInputs.begin(), constantInputs.end());
        auto r = tessel::topi::test::runNodeTest(name.toStdString(), o);
        QVERIFY2(r.failure.empty(), r.failure.c_str());
    }

    // Gather with a scalar index read at run time: negative indices count from
    // the end, and an index out of range is clamped instead of reading outside
    // the data.
    void gatherScalarIndex() {
        using namespace tessel;
        graph::Graph g("gather");
        auto data = g.addInput("data", *graph::TensorType::parse("float32[3, 2]"));
        auto neg = g.addInput("neg", *graph::TensorType::parse("int32[]"));
        auto big = g.addInput("big", *graph::TensorType::parse("int64[]"));
        graph::Attributes axis1;
        axis1.set("axis", int64_t(1));
        g.setOutputs({g.addOp("Gather", {data, neg}), g.addOp("Gather", {data, big}, axis1)});
        g = graph::inferShapes(g);
        auto r = topi::test::runGraphTest(
            g,
            {{"data", graph::Constant::fromFloats({3, 2}, {1, 2, 3, 4, 5, 6})},
             {"neg", graph::Constant::fromInts({}, {-1}, DataType::int32())},
             {"big", graph::Constant::fromInts({}, {7})}},
            {graph::Constant::fromFloats({2}, {5, 6}),
             graph::Constant::fromFloats({3}, {2, 4, 6})});
        QVERIFY2(r.failure.empty(), r.failure.c_str());
    }

    // The typed computes, called directly as a TE script would.
    void typedComputes() {
        using namespace tessel;
        using runtime::NDArray;
        using topi::test::Tensors;
        namespace tf = topi::transform;
        auto iota = [](std::vector<int64_t> shape) {
            NDArray a(std::move(shape), DataType::float32());
            for (int64_t i = 0; i < a.numElements(); ++i)
                a.data<float>()[i] = float(i);
            return a;
        };
        auto values = [](const topi::test::OpRun& r, size_t k = 0) {
            std::vector<float> v(r.outputs[k].data<float>(), r.outputs[k].data<float>() + r.outputs[k].numElements());
            return v;
        };
        NDArray x = iota({2, 3, 4});
        // reshape infers one -1 extent; row-major order is kept.
        auto r = topi::test::runCompute({x}, [](const Tensors& in) { return Tensors{tf::reshape(in[0], {4, -1})}; });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.outputs[0].shape(), (std::vector<int64_t>{4, 6}));
        QCOMPARE(values(r)[13], 13.0f);
        // transpose: axis k of the result is axis perm[k].
        r = topi::test::runCompute({x}, [](const Tensors& in) { return Tensors{tf::transpose(in[0], {2, 0, 1})}; });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.outputs[0].shape(), (std::vector<int64_t>{4, 2, 3}));
        QCOMPARE(values(r)[1 * 6 + 1 * 3 + 2], float(1 * 12 + 2 * 4 + 1)); // y[1, 1, 2] = x[1, 2, 1]
        // Slicing backwards with a step of 2 from the last element.
        r = topi::test::runCompute({iota({5})}, [](const Tensors& in) {
            return Tensors{tf::stridedSlice(in[0], {.starts = {-1}, .ends = {-100}, .steps = {-2}})};
        });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(values(r), (std::vector<float>{4, 2, 0}));
        // split: the parts named name, name_1 ...
        r = topi::test::runCompute({x}, [](const Tensors& in) {
            auto parts = tf::split(in[0], {1, 2}, 1, "part");
            if (parts[0].name() != "part" || parts[1].name() != "part_1") throw std::runtime_error("part names");
            return parts;
        });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.outputs[1].shape(), (std::vector<int64_t>{2, 2, 4}));
        QCOMPARE(values(r, 1)[0], 4.0f); // x[0, 1, 0]
        // A literal index is folded in: the index tensor is no stage of the result.
        NDArray data = iota({3, 2});
        r = topi::test::runCompute({data}, [](const Tensors& in) {
            Tensor last = topi::literalTensor({}, tir::makeConst(DataType::int64(), int64_t(-1)), "last");
            return Tensors{tf::gather(in[0], last, 0)};
        });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(values(r), (std::vector<float>{4, 5}));
        for (auto& op : r.stages)
            QVERIFY(op->name != "last");
        // reflect padding mirrors without repeating the edge.
        r = topi::test::runCompute({iota({4})}, [](const Tensors& in) {
            return Tensors{tf::pad(in[0], {.before = {2}, .after = {1}, .mode = "reflect"})};
        });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(values(r), (std::vector<float>{2, 1, 0, 1, 2, 3, 2}));
        // Errors a script's author can read.
        r = topi::test::runCompute({x, iota({2, 2, 4})}, [](const Tensors& in) {
            return Tensors{tf::concatenate({in[0], in[1]}, 2)};
        });
        QVERIFY2(r.error.find("cannot join [2, 3, 4] and [2, 2, 4] along axis 2") != std::string::npos, r.error.c_str());
        r = topi::test::runCompute({x}, [](const Tensors& in) { return Tensors{tf::reshape(in[0], {5, -1})}; });
        QVERIFY2(r.error.find("cannot reshape [2, 3, 4] to [5, -1]") != std::string::npos, r.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestTopiTransform)
#include "tst_topi_transform.moc"
