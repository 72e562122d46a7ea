// SPDX-License-Identifier: MIT
// Bullet 3 (Debian's libbullet-dev) running the 3D benchmark's scene: btDiscreteDynamicsWorld with
// btSequentialImpulseConstraintSolver at its defaults (10 iterations, split impulse on), the
// default collision configuration and btDbvtBroadphase; the floor and walls static planes, the boxes btBoxShape
// (its margin lies inside the given half extents), sleeping off. Timed, as its solver phase: the
// world's predictUnconstraintMotion (gravity into the velocities), solveConstraints and
// integrateTransforms, the stages of impulse's Solver::step.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <btBulletDynamicsCommon.h>
#include <LinearMath/btScalar.h>

#include "engine3d.hpp"

namespace {

using Clock = std::chrono::steady_clock;

/// The world with its solver stages timed.
class TimedWorld : public btDiscreteDynamicsWorld {
public:
    using btDiscreteDynamicsWorld::btDiscreteDynamicsWorld;
    double seconds{0};

protected:
    void predictUnconstraintMotion(btScalar dt) override
    {
        const auto t0 = Clock::now();
        btDiscreteDynamicsWorld::predictUnconstraintMotion(dt);
        seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    }
    void solveConstraints(btContactSolverInfo& info) override
    {
        const auto t0 = Clock::now();
        btDiscreteDynamicsWorld::solveConstraints(info);
        seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    }
    void integrateTransforms(btScalar dt) override
    {
        const auto t0 = Clock::now();
        btDiscreteDynamicsWorld::integrateTransforms(dt);
        seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    }
};

class Bullet final : public bench3d::Engine {
public:
    explicit Bullet(const bench3d::Scene& s)
        : dispatcher_(&config_), world_(&dispatcher_, &broadphase_, &solver_, &config_), floor_(btVector3(0, 1, 0), 0)
    {
        world_.setGravity(btVector3(0, btScalar(-s.gravity), 0));
        btRigidBody::btRigidBodyConstructionInfo ground(0, nullptr, &floor_);
        ground.m_friction = btScalar(s.friction);
        ground_ = std::make_unique<btRigidBody>(ground);
        world_.addRigidBody(ground_.get());
        if (s.pit > 0) {
            const btVector3 normals[4] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};
            const btScalar offsets[4] = {0, btScalar(-s.pit), 0, btScalar(-s.pit)};
            for (int k = 0; k < 4; ++k) {
                walls_.push_back(std::make_unique<btStaticPlaneShape>(normals[k], offsets[k]));
                btRigidBody::btRigidBodyConstructionInfo wall(0, nullptr, walls_.back().get());
                wall.m_friction = btScalar(s.friction);
                wall_bodies_.push_back(std::make_unique<btRigidBody>(wall));
                world_.addRigidBody(wall_bodies_.back().get());
            }
        }
        for (const auto& b : s.boxes) {
            shapes_.push_back(std::make_unique<btBoxShape>(btVector3(btScalar(b.hx), btScalar(b.hy), btScalar(b.hz))));
            const btScalar mass = btScalar(s.density * 8 * b.hx * b.hy * b.hz);
            btVector3 inertia;
            shapes_.back()->calculateLocalInertia(mass, inertia);
            states_.push_back(std::make_unique<btDefaultMotionState>(
                btTransform(btQuaternion(btScalar(b.q[0]), btScalar(b.q[1]), btScalar(b.q[2]), btScalar(b.q[3])),
                            btVector3(btScalar(b.x), btScalar(b.y), btScalar(b.z)))));
            btRigidBody::btRigidBodyConstructionInfo info(mass, states_.back().get(), shapes_.back().get(), inertia);
            info.m_friction = btScalar(s.friction);
            info.m_restitution = 0;
            bodies_.push_back(std::make_unique<btRigidBody>(info));
            bodies_.back()->setActivationState(DISABLE_DEACTIVATION);
            world_.addRigidBody(bodies_.back().get());
        }
    }
    ~Bullet() override
    {
        for (auto& b : bodies_) world_.removeRigidBody(b.get());
        for (auto& b : wall_bodies_) world_.removeRigidBody(b.get());
        world_.removeRigidBody(ground_.get());
    }

    double step() override
    {
        world_.seconds = 0;
        world_.stepSimulation(btScalar(1.0 / 60), 0, btScalar(1.0 / 60));
        return world_.seconds;
    }

    void state(std::vector<bench3d::BodyState>& out) const override
    {
        out.resize(bodies_.size());
        for (std::size_t i = 0; i < bodies_.size(); ++i) {
            const btTransform& t = bodies_[i]->getWorldTransform();
            const btQuaternion q = t.getRotation();
            const btVector3 v = bodies_[i]->getLinearVelocity();
            bench3d::BodyState& s = out[i];
            for (int k = 0; k < 3; ++k) {
                s.x[k] = double(t.getOrigin()[k]);
                s.v[k] = double(v[k]);
            }
            s.q[0] = double(q.x());
            s.q[1] = double(q.y());
            s.q[2] = double(q.z());
            s.q[3] = double(q.w());
        }
    }

private:
    btDefaultCollisionConfiguration config_;
    btCollisionDispatcher dispatcher_;
    btDbvtBroadphase broadphase_;
    btSequentialImpulseConstraintSolver solver_;
    TimedWorld world_;
    btStaticPlaneShape floor_;
    std::unique_ptr<btRigidBody> ground_;
    std::vector<std::unique_ptr<btStaticPlaneShape>> walls_;
    std::vector<std::unique_ptr<btRigidBody>> wall_bodies_;
    std::vector<std::unique_ptr<btBoxShape>> shapes_;
    std::vector<std::unique_ptr<btDefaultMotionState>> states_;
    std::vector<std::unique_ptr<btRigidBody>> bodies_;
};

}  // namespace

namespace bench3d {

std::unique_ptr<Engine> make_bullet(const Scene& s) { return std::make_unique<Bullet>(s); }

std::string bullet_version()
{
    const int v = btGetVersion();
    return "Bullet " + std::to_string(v / 100) + "." + std::to_string(v % 100) +
           (sizeof(btScalar) == sizeof(double) ? " (double)" : " (float)");
}

}  // namespace bench3d
