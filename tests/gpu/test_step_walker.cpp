// SPDX-License-Identifier: Apache-2.0
// The one chain walker (planSteps) on a described H200, no GPU needed: a forced method goes to
// the steps that can use it and Auto to the others, without an exception on the way, and each
// later step plans with the bound the step before keeps.

#include "gpu/exec/chain_runner.h"
#include "tessera/gpu/executor.h"
#include "planner_grid.h"

#include <gtest/gtest.h>

namespace tessera::gpu {
namespace {

filters::FilterChain separableThenDense()
{
    filters::FilterChain chain;
    chain.steps.push_back(test::separableSpec(5));
    chain.steps.push_back(test::denseSpec(5));
    return chain;
}

TEST(StepWalker, ForcesAMethodOnlyWhereTheStepCanUseIt)
{
    const DeviceInfo h200 = test::describedH200();
    const PixelFormat format{PixelDepth::U8, 4};
    const auto chain = separableThenDense();
    EXPECT_TRUE(stepTakes(chain.steps[0], format, 640, 480, h200, Method::Separable));
    EXPECT_FALSE(stepTakes(chain.steps[1], format, 640, 480, h200, Method::Separable));
    EXPECT_TRUE(stepTakes(chain.steps[1], format, 640, 480, h200, Method::Direct));
    EXPECT_TRUE(stepTakes(chain.steps[1], format, 640, 480, h200, Method::Auto));

    const std::vector<Plan> plans = planSteps(chain, format, 640, 480, h200, Method::Separable);
    ASSERT_EQ(plans.size(), 2U);
    EXPECT_EQ(plans[0].method, Method::Separable);
    EXPECT_EQ(plans[0].reason.rfind("forced", 0), 0U) << plans[0].describe();
    // The dense step cannot separate: it plans as Auto would, with the planner's own reason.
    const Plan automatic = makePlan(chain.steps[1], plans[0].output, 640, 480, h200, Method::Auto, TensorCores::Auto,
                                    SourceValues{true, plans[0].outputMaxExponent});
    EXPECT_EQ(plans[1].method, automatic.method);
    EXPECT_EQ(plans[1].describe(), automatic.describe());
}

TEST(StepWalker, LaterStepsPlanWithTheBoundOfTheStepBefore)
{
    const DeviceInfo h200 = test::describedH200();
    const PixelFormat format{PixelDepth::F32, 1};
    const auto chain = separableThenDense();
    SourceValues values;
    values.maxExponent = 3;
    const std::vector<Plan> plans = planSteps(chain, format, 256, 256, h200, Method::Auto, TensorCores::Auto, values);
    ASSERT_EQ(plans.size(), 2U);
    EXPECT_EQ(
        plans[0].outputMaxExponent,
        makePlan(chain.steps[0], format, 256, 256, h200, Method::Auto, TensorCores::Auto, values).outputMaxExponent);
    EXPECT_NE(plans[0].outputMaxExponent, SourceValues::kUnknown);
    const Plan second = makePlan(chain.steps[1], plans[0].output, 256, 256, h200, Method::Auto, TensorCores::Auto,
                                 SourceValues{true, plans[0].outputMaxExponent});
    EXPECT_EQ(plans[1].outputMaxExponent, second.outputMaxExponent);
    // Without a bound at the start, none is invented later.
    const auto unbounded = planSteps(chain, format, 256, 256, h200, Method::Auto);
    EXPECT_EQ(unbounded[1].outputMaxExponent, SourceValues::kUnknown);
}

TEST(StepWalker, TensorCoreSettingNarrowsWhatAForcedMethodMayUse)
{
    const DeviceInfo h200 = test::describedH200();
    const PixelFormat format{PixelDepth::U8, 4};
    const auto dense = test::denseSpec(5);
    // Whatever the answer with tensor cores on, planning with it never throws when the walker
    // said yes, and planSteps never throws for a forced method a step cannot use.
    for (const TensorCores tensor : {TensorCores::Auto, TensorCores::Off}) {
        for (const Method m : {Method::Direct, Method::Separable}) {
            filters::FilterChain chain;
            chain.steps.push_back(dense);
            EXPECT_NO_THROW(planSteps(chain, format, 320, 200, h200, m, tensor)) << toString(m);
        }
    }
}

}  // namespace
}  // namespace tessera::gpu
