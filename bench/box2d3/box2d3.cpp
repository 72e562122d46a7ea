// SPDX-License-Identifier: MIT
// Box2D v3 running a bench::Scene: the same shapes, densities and coefficients (rolling resistance
// included), 4 substeps and its default contact softness, sleeping and continuous collision off.
// Its solver phase is b2Profile's solverSetup + constraints + transforms. On more than one worker
// it runs on the scheduler it brings (b2WorldDef::workerCount without task callbacks: its own
// threads), the way it is meant to run when an engine supplies nothing. Box2D v3 is not in
// Debian: a user builds it from its public sources and points the benchmark at it
// (bench/CMakeLists.txt); without it make_box2d3 returns null and the benchmark leaves it out.
#include "engine.hpp"

#if IMPULSE_BENCH_HAVE_BOX2D3
#include <box2d/box2d.h>

namespace {

class Box2D3 final : public bench::Engine {
public:
    Box2D3(const bench::Scene& s, int workers)
    {
        b2WorldDef wd = b2DefaultWorldDef();
        wd.workerCount = workers;
        wd.gravity = {0.0f, float(-s.gravity)};
        wd.enableSleep = false;
        wd.enableContinuous = false;
        wd.restitutionThreshold = float(s.threshold);
        world_ = b2CreateWorld(&wd);
        b2BodyDef gd = b2DefaultBodyDef();
        const b2BodyId ground = b2CreateBody(world_, &gd);
        b2ShapeDef sd = b2DefaultShapeDef();
        sd.material.friction = float(s.friction);
        sd.material.restitution = float(s.restitution);
        sd.material.rollingResistance = float(s.rolling_resistance);
        sd.density = float(s.density);
        if (s.pit) {
            const float w = float(s.width), far = 1000.0f * w;
            const b2Segment floor = {{-far, 0.0f}, {w + far, 0.0f}}, left = {{0.0f, 0.0f}, {0.0f, far}},
                            right = {{w, 0.0f}, {w, far}};
            for (const b2Segment* seg : {&floor, &left, &right}) b2CreateSegmentShape(ground, &sd, seg);
        } else {
            const b2Polygon g = b2MakeOffsetBox(100.0f, 1.0f, {0.0f, -1.0f}, b2Rot_identity);
            b2CreatePolygonShape(ground, &sd, &g);
        }
        for (const auto& ball : s.balls) {
            b2BodyDef bd = b2DefaultBodyDef();
            bd.type = b2_dynamicBody;
            bd.position = {float(ball.x), float(ball.y)};
            const b2BodyId id = b2CreateBody(world_, &bd);
            const b2Circle c = {{0.0f, 0.0f}, float(ball.r)};
            b2CreateCircleShape(id, &sd, &c);
            bodies_.push_back(id);
        }
        for (const auto& box : s.boxes) {
            b2BodyDef bd = b2DefaultBodyDef();
            bd.type = b2_dynamicBody;
            bd.position = {float(box.x), float(box.y)};
            const b2BodyId id = b2CreateBody(world_, &bd);
            const b2Polygon p = b2MakeBox(float(box.half), float(box.half));
            b2CreatePolygonShape(id, &sd, &p);
            bodies_.push_back(id);
        }
    }
    ~Box2D3() override { b2DestroyWorld(world_); }
    Box2D3(const Box2D3&) = delete;
    Box2D3& operator=(const Box2D3&) = delete;

    void settle(int steps) override
    {
        for (int i = 0; i < steps; ++i) b2World_Step(world_, dt, 4);
    }

    bench::StepTime step() override
    {
        b2World_Step(world_, dt, 4);
        bench::StepTime t;
        const b2Profile p = b2World_GetProfile(world_);
        // Manifold points, each contact counted once: by its body A, or by its dynamic body when A
        // is the static ground.
        for (const b2BodyId id : bodies_) {
            contacts_.resize(std::size_t(b2Body_GetContactCapacity(id)));
            const int n = b2Body_GetContactData(id, contacts_.data(), int(contacts_.size()));
            for (int i = 0; i < n; ++i) {
                const b2BodyId a = b2Shape_GetBody(contacts_[std::size_t(i)].shapeIdA);
                if (B2_ID_EQUALS(a, id) || b2Body_GetType(a) == b2_staticBody)
                    t.points += std::size_t(contacts_[std::size_t(i)].manifold.pointCount);
            }
        }
        t.seconds = double(p.solverSetup + p.constraints + p.transforms) / 1000.0;  // ms -> s
        // The parts as impulse names them (bench::part_names); Box2D v3 colours its contacts as
        // they begin and end, outside the solver phase, so it has no colouring part here.
        const float parts[] = {p.solverSetup + p.integrateVelocities + p.integratePositions + p.transforms,
                               0.0f,
                               p.prepareConstraints,
                               p.warmStart,
                               p.solveImpulses,
                               p.relaxImpulses,
                               p.applyRestitution,
                               p.storeImpulses};
        for (int k = 0; k < bench::StepTime::part_count; ++k) t.parts[k] = double(parts[k]) / 1000.0;
        t.parts_known = true;
        return t;
    }

    void state(std::vector<double>& x, std::vector<double>& y, std::vector<double>& angle, std::vector<double>& vx,
               std::vector<double>& vy) const override
    {
        for (const b2BodyId id : bodies_) {
            const b2Vec2 p = b2Body_GetPosition(id), v = b2Body_GetLinearVelocity(id);
            x.push_back(p.x);
            y.push_back(p.y);
            angle.push_back(b2Rot_GetAngle(b2Body_GetRotation(id)));
            vx.push_back(v.x);
            vy.push_back(v.y);
        }
    }

private:
    static constexpr float dt = 1.0f / 60.0f;
    b2WorldId world_{};
    std::vector<b2BodyId> bodies_;
    std::vector<b2ContactData> contacts_;
};

}  // namespace

namespace bench {
std::unique_ptr<Engine> make_box2d3(const Scene& s, int workers) { return std::make_unique<Box2D3>(s, workers); }
std::string box2d3_version() { return IMPULSE_BENCH_BOX2D3_VERSION; }
}  // namespace bench

#else

namespace bench {
std::unique_ptr<Engine> make_box2d3(const Scene&, int) { return nullptr; }
std::string box2d3_version() { return ""; }
}  // namespace bench

#endif
